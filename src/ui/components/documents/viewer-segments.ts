import type { Passage } from '../../../core/model';

/** A piece of what the document viewer shows: a page label, or a run of the text. */
export type ViewerSegment =
  { type: 'page'; page: number } | { type: 'text'; text: string; cited: boolean };

/**
 * Splits a document's rebuilt text for the viewer (U143): a "Page N" label where each page of a
 * PDF begins (from the passages' `page` and `start`), and the cited range as its own run so it
 * can be marked. Labels sit between runs, never inside the text, so every offset still points at
 * the same characters. A document without pages is one run (plus the cited one).
 */
export function viewerSegments(
  text: string,
  passages: readonly Passage[],
  cited: { start: number; end: number } | null,
): ViewerSegment[] {
  // Where each page starts: the smallest start among its passages.
  const pageStarts = new Map<number, number>();
  for (const p of passages) {
    if (p.source.type !== 'document' || p.source.page === undefined) continue;
    const seen = pageStarts.get(p.source.page);
    if (seen === undefined || p.source.start < seen) pageStarts.set(p.source.page, p.source.start);
  }
  const labels = [...pageStarts]
    .map(([page, start]) => ({ page, start: Math.max(0, Math.min(start, text.length)) }))
    .sort((a, b) => a.start - b.start || a.page - b.page);
  // Cut points: page starts and the cited range's two ends.
  const cuts = new Set<number>([0, text.length]);
  for (const l of labels) cuts.add(l.start);
  if (cited) {
    cuts.add(Math.max(0, Math.min(cited.start, text.length)));
    cuts.add(Math.max(0, Math.min(cited.end, text.length)));
  }
  const points = [...cuts].sort((a, b) => a - b);
  const out: ViewerSegment[] = [];
  let label = 0;
  for (let i = 0; i < points.length; i += 1) {
    const at = points[i]!;
    while (label < labels.length && labels[label]!.start === at) {
      out.push({ type: 'page', page: labels[label]!.page });
      label += 1;
    }
    const next = points[i + 1];
    if (next === undefined || next === at) continue;
    const isCited = cited !== null && at >= cited.start && next <= cited.end;
    const last = out.at(-1);
    // Neighbouring runs of the same kind are one run.
    if (last?.type === 'text' && last.cited === isCited) last.text += text.slice(at, next);
    else out.push({ type: 'text', text: text.slice(at, next), cited: isCited });
  }
  return out;
}
