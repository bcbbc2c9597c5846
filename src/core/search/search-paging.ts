/**
 * Paging half of memory search: checks a page request and turns a ranked id list into a page of
 * hits read from the store (rows deleted since they were indexed are skipped).
 */
import { AppError } from '../errors';
import type { Message, Passage } from '../model';
import type { SearchHit, SearchPage, SearchQuery } from '../ports/memory-search';
import type { MemoryStore } from '../ports/memory-store';
import type { SearchMeta } from './search-docs';

export function checkPage(page: number, pageSize: number): void {
  if (!Number.isInteger(page) || page < 1 || !Number.isInteger(pageSize) || pageSize < 1) {
    throw new AppError(
      'invalid_argument',
      `Search pages are 1-based integers (got page ${page}, size ${pageSize}).`,
    );
  }
}

/** Page `q.page` of `ranked` (best first), its rows read from `store`; `total` for the pager. */
export async function toPage(
  ranked: { id: string; score: number }[],
  q: SearchQuery,
  meta: ReadonlyMap<string, SearchMeta>,
  store: MemoryStore,
  total = ranked.length,
): Promise<SearchPage> {
  const start = (q.page - 1) * q.pageSize;
  const slice = ranked.slice(start, start + q.pageSize);
  const messageIds = slice.filter((r) => meta.get(r.id)?.kind === 'message').map((r) => r.id);
  const passageIds = slice.filter((r) => meta.get(r.id)?.kind === 'passage').map((r) => r.id);
  const [messages, passages] = await Promise.all([
    messageIds.length ? store.getMessages(messageIds) : Promise.resolve([]),
    passageIds.length ? store.getPassages(passageIds) : Promise.resolve([]),
  ]);
  const byId = new Map<string, Message | Passage>();
  for (const m of messages) byId.set(m.id, m);
  for (const p of passages) byId.set(p.id, p);
  const hits: SearchHit[] = [];
  for (const r of slice) {
    const record = byId.get(r.id);
    if (!record) continue; // written to the index but deleted from the store since
    const kind = meta.get(r.id)!.kind;
    hits.push(
      kind === 'message'
        ? {
            id: r.id,
            kind,
            score: r.score,
            text: record.text,
            at: record.at,
            message: record as Message,
          }
        : {
            id: r.id,
            kind,
            score: r.score,
            text: record.text,
            at: record.at,
            passage: record as Passage,
          },
    );
  }
  return { hits, total, page: q.page, pageSize: q.pageSize };
}
