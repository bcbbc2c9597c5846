import type { BenchFigure } from '../types';

/**
 * p50 and p95 of `runs` timed calls `fn(0 … runs−1)` after `warmup` untimed calls
 * `fn(runs … runs+warmup−1)` — distinct indices, so a cache never serves a timed call what the
 * warm-up asked.
 */
export function latency(
  fn: (i: number) => unknown,
  runs: number,
  warmup = Math.min(5, runs),
): { p50: number; p95: number } {
  for (let i = 0; i < warmup; i += 1) fn(runs + i);
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const t0 = performance.now();
    fn(i);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { p50: at(0.5), p95: at(0.95) };
}

const round = (x: number) => (Math.abs(x) >= 100 ? Math.round(x) : Math.round(x * 1000) / 1000);

/** A time figure (lower is better): ratio = baseline / value. */
export function timeFigure(
  id: string,
  label: string,
  value: number,
  baseline?: { label: string; value: number },
  extra: Partial<BenchFigure> = {},
): BenchFigure {
  return {
    id,
    label,
    unit: 'ms',
    value: round(value),
    ...(baseline
      ? {
          baseline: { label: baseline.label, value: round(baseline.value) },
          ratio: round(baseline.value / value),
        }
      : {}),
    ...extra,
  };
}

/** A throughput figure (higher is better): ratio = value / baseline. */
export function rateFigure(
  id: string,
  label: string,
  unit: BenchFigure['unit'],
  value: number,
  baseline?: { label: string; value: number },
  extra: Partial<BenchFigure> = {},
): BenchFigure {
  return {
    id,
    label,
    unit,
    value: round(value),
    ...(baseline
      ? {
          baseline: { label: baseline.label, value: round(baseline.value) },
          ratio: round(value / baseline.value),
        }
      : {}),
    ...extra,
  };
}
