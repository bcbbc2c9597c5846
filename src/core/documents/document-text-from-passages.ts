import type { Passage } from '../model';

/**
 * Rebuilds a document's text from its passages, for the document viewer: each passage's text
 * sits at its exact `[start, end)`, so a citation's offsets highlight the same characters as in
 * the original. Chunks cover every non-space character (spec D10), so only whitespace between
 * passages is lost; a one-character gap is filled with a space, a longer one with a paragraph
 * break padded to the same length. Passages may overlap and arrive in any order.
 *
 * With `gaps: 'newlines'` (Markdown, U197) every lost character becomes a line break instead:
 * in Markdown a gap is almost always the break between blocks or table rows, and a space there
 * would join a heading or a row to the line before it, while spaces after a break would indent
 * the next block into code. Offsets are the same either way.
 */
export function documentTextFromPassages(
  passages: readonly Passage[],
  gaps: 'spaces' | 'newlines' = 'spaces',
): string {
  const ranges = passages
    .flatMap((p) =>
      p.source.type === 'document'
        ? [{ start: p.source.start, end: p.source.end, text: p.text }]
        : [],
    )
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const parts: string[] = [];
  let at = 0;
  for (const r of ranges) {
    if (r.end <= at) continue;
    if (r.start > at) {
      const gap = r.start - at;
      if (gaps === 'newlines') parts.push('\n'.repeat(gap));
      else parts.push(gap === 1 ? ' ' : `\n\n${' '.repeat(gap - 2)}`);
      at = r.start;
    }
    parts.push(r.text.slice(at - r.start));
    at = r.end;
  }
  return parts.join('');
}
