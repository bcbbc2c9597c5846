import type { Message } from '../model';
import type { SearchHit, SearchPage } from '../ports/memory-search';
import {
  formatDate,
  passageSourceLabel,
  quoteData,
  renderArchivalMemory,
} from '../prompts/render-context';
import { inlineText } from '../text/inline-text';
import type { Chars } from '../units';

/** Longest text of one hit in a tool result; a page of 5 stays near 400 tokens. */
export const HIT_CHARS: Chars = 280;

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= HIT_CHARS ? flat : `${flat.slice(0, HIT_CHARS - 1)}…`;
}

/**
 * One hit: its source in brackets, its text as quoted data (ADR 0134); with several
 * conversations, a message hit ends its source with where it was said (A23).
 */
function hitLine(hit: SearchHit, conversationOf?: (message: Message) => string): string {
  if (hit.kind === 'passage')
    return renderArchivalMemory(hit.id, clip(hit.text), passageSourceLabel(hit.passage));
  const m = hit.message;
  const who = m ? `${m.role}${m.author ? ` ${inlineText(m.author)}` : ''}` : 'message';
  const seq = m ? `seq ${m.seq} · ` : '';
  const where = m && conversationOf ? ` · ${conversationOf(m)}` : '';
  return `[${seq}${formatDate(hit.at)} · ${who}${where}] ${quoteData(clip(hit.text))}`;
}

/**
 * A result page as the model reads it (T4): `results 6–10 of 37 (page 2 of 8)` then one line per
 * hit; an empty or out-of-range page says how many results and pages there are.
 */
export function formatPage(
  page: SearchPage,
  what: string,
  conversationOf?: (message: Message) => string,
): string {
  const pages = Math.max(1, Math.ceil(page.total / page.pageSize));
  if (page.total === 0) return `No results for ${what}.`;
  if (page.hits.length === 0) {
    return `Page ${page.page} is empty: ${page.total} results for ${what} fill ${pages} page${pages === 1 ? '' : 's'}.`;
  }
  const first = (page.page - 1) * page.pageSize + 1;
  const last = first + page.hits.length - 1;
  const more = page.page < pages ? ` Next: page ${page.page + 1}.` : '';
  return [
    `results ${first}–${last} of ${page.total} (page ${page.page} of ${pages}) for ${what}:${more}`,
    ...page.hits.map((hit) => hitLine(hit, conversationOf)),
  ].join('\n');
}
