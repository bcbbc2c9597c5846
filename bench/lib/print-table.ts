import type { BenchFigure } from '../types';

/** Renders figures as a plain-text table: id, value, unit, baseline, ratio, target. */
export function printTable(figures: readonly BenchFigure[]): string {
  const rows = [
    ['id', 'value', 'unit', 'baseline', 'ratio', 'target'],
    ...figures.map((f) => [
      f.id,
      String(f.value),
      f.unit,
      f.baseline ? `${f.baseline.value} (${f.baseline.label})` : '',
      f.ratio === undefined ? '' : `${f.ratio}×`,
      f.target ?? '',
    ]),
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows
    .map((r) =>
      r
        .map((cell, c) => cell.padEnd(widths[c]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
