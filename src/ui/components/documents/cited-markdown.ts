import { linkCitations } from '../../../core/documents/citations';
import type { Passage } from '../../../core/model';
import { documentHref } from './document-link';

/**
 * A reply with the search results' own id format (`[p:psg_1]`, `[^p:psg_1]`) rewritten to the
 * citation marker `[^psg_1]`: small models copy what the tool result showed them.
 */
export function normalizeMarkers(reply: string): string {
  return reply.replace(/\[\^?p:\s*([\w.-]+)\s*\]/g, '[^$1]');
}

/**
 * A reply's Markdown with each citation marker `[^passage-id]` turned into a link `[n]` that
 * opens the document viewer at that passage (U138). Markers whose id is unknown — or not yet
 * fetched — are dropped, so a raw id never shows. The result still goes through
 * `renderMarkdown`, which sanitizes it.
 */
export function citedMarkdown(reply: string, passages: readonly Passage[]): string {
  const cited = linkCitations(normalizeMarkers(reply), passages);
  return cited.segments
    .map((s) => {
      if (s.type === 'text') return s.text;
      const { number, documentId, passageId } = s.citation;
      const title = `Open cited passage ${number}`;
      return `[\\[${number}\\]](${documentHref(documentId, passageId)} "${title}")`;
    })
    .join('');
}

/**
 * Follows a click on a citation link inside rendered Markdown in this tab: the sanitizer gives
 * every link `target="_blank"`, which is right for web links but would open a second Loci.
 */
export function followCitationClick(event: MouseEvent): void {
  const target = event.target instanceof Element ? event.target.closest('a') : null;
  const href = target?.getAttribute('href') ?? '';
  if (!href.startsWith('#/documents?')) return;
  event.preventDefault();
  window.location.hash = href;
}
