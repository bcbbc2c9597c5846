import type { TextRange } from './match-ranges';

/** A piece of text, shown marked (a `<mark>`) or plain. */
export interface MarkedSegment {
  text: string;
  marked: boolean;
}

/**
 * `text` cut at `ranges` (sorted, not overlapping, as `matchRanges` gives them) into plain and
 * marked pieces that join back to `text` exactly (U209). Rendered as text nodes, never as HTML.
 */
export function markedSegments(text: string, ranges: readonly TextRange[]): MarkedSegment[] {
  const out: MarkedSegment[] = [];
  let at = 0;
  for (const { start, end } of ranges) {
    const from = Math.max(start, at);
    const to = Math.min(end, text.length);
    if (to <= from) continue;
    if (from > at) out.push({ text: text.slice(at, from), marked: false });
    out.push({ text: text.slice(from, to), marked: true });
    at = to;
  }
  if (at < text.length || out.length === 0) out.push({ text: text.slice(at), marked: false });
  return out;
}
