/**
 * A small {@link MemorySearch} for core tests: term-overlap scoring (words, Han characters) with
 * a recency tie-break, paging with totals, filters and `exclude`. It stands in for the real
 * hybrid search (`createMemorySearch`) where a test is about the agent loop, not ranking.
 */
import type { AgentId, Message, Passage } from '../core/model';
import type { MemoryStore } from '../core/ports/memory-store';
import type { MemorySearch, SearchHit, SearchPage, SearchQuery } from '../core/ports/memory-search';
import type { EpochMs } from '../core/units';

const terms = (text: string): string[] =>
  text.toLowerCase().match(/[\p{Script=Han}]|[\p{L}\p{N}][\p{L}\p{N}_-]*/gu) ?? [];

export class InMemorySearch implements MemorySearch {
  private readonly messages = new Map<string, Message>();
  private readonly passages = new Map<string, Passage>();
  /** Every query, for assertions on automatic recall. */
  readonly queries: SearchQuery[] = [];

  constructor(private readonly store?: MemoryStore) {}

  search(query: SearchQuery): Promise<SearchPage> {
    this.queries.push(query);
    const wanted = new Set(terms(query.text));
    const exclude = new Set(query.exclude ?? []);
    const hits: SearchHit[] = [];
    const score = (text: string): number => {
      const have = new Set(terms(text));
      let n = 0;
      for (const term of wanted) if (have.has(term)) n += 1;
      return n;
    };
    const inRange = (at: EpochMs): boolean =>
      (query.from === undefined || at >= query.from) && (query.to === undefined || at <= query.to);
    if (query.kinds.includes('message')) {
      for (const message of this.messages.values()) {
        if (message.agentId !== query.agentId || exclude.has(message.id)) continue;
        if (query.roles && !query.roles.includes(message.role)) continue;
        if (!inRange(message.at)) continue;
        const s = score(message.text);
        if (s > 0)
          hits.push({
            id: message.id,
            kind: 'message',
            score: s,
            text: message.text,
            at: message.at,
            message,
          });
      }
    }
    if (query.kinds.includes('passage')) {
      for (const passage of this.passages.values()) {
        if (passage.agentId !== query.agentId || exclude.has(passage.id)) continue;
        if (query.sourceType && passage.source.type !== query.sourceType) continue;
        if (!inRange(passage.at)) continue;
        const s = score(passage.text);
        if (s > 0)
          hits.push({
            id: passage.id,
            kind: 'passage',
            score: s,
            text: passage.text,
            at: passage.at,
            passage,
          });
      }
    }
    hits.sort((a, b) => b.score - a.score || b.at - a.at || a.id.localeCompare(b.id));
    return Promise.resolve(page(hits, query.page, query.pageSize));
  }

  searchByDate(
    agentId: AgentId,
    from: EpochMs,
    to: EpochMs,
    pageNumber: number,
    pageSize: number,
  ): Promise<SearchPage> {
    const hits: SearchHit[] = [...this.messages.values()]
      .filter((m) => m.agentId === agentId && m.at >= from && m.at <= to)
      .filter((m) => m.role === 'user' || m.role === 'assistant')
      .sort((a, b) => a.seq - b.seq)
      .map((m) => ({ id: m.id, kind: 'message', score: 0, text: m.text, at: m.at, message: m }));
    return Promise.resolve(page(hits, pageNumber, pageSize));
  }

  indexMessages(messages: Message[]): Promise<void> {
    for (const message of messages) this.messages.set(message.id, message);
    return Promise.resolve();
  }

  indexPassages(passages: Passage[]): Promise<void> {
    for (const passage of passages) this.passages.set(passage.id, passage);
    return Promise.resolve();
  }

  removePassages(_agentId: AgentId, ids: string[]): Promise<void> {
    for (const id of ids) this.passages.delete(id);
    return Promise.resolve();
  }

  removeMessages(_agentId: AgentId, ids: string[]): Promise<void> {
    for (const id of ids) this.messages.delete(id);
    return Promise.resolve();
  }

  async loadAgent(agentId: AgentId): Promise<void> {
    if (!this.store) return;
    await this.indexMessages(await this.store.queryMessages(agentId));
    await this.indexPassages(await this.store.queryPassages(agentId));
  }
}

function page(hits: SearchHit[], pageNumber: number, pageSize: number): SearchPage {
  const start = (pageNumber - 1) * pageSize;
  return {
    hits: hits.slice(start, start + pageSize),
    total: hits.length,
    page: pageNumber,
    pageSize,
  };
}
