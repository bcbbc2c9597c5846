import MiniSearch from 'minisearch';
import type {
  LexicalDoc,
  LexicalHit,
  LexicalIndex,
  LexicalPage,
  LexicalQuery,
} from '../core/ports/lexical-index';
import type { VectorKind } from '../core/ports/vector-index';
import { tokenize } from '../core/search/tokenize';
import type { EpochMs } from '../core/units';

/** Full hit lists kept for repeated queries (see `cache`). */
const CACHED_QUERIES = 8;

interface Meta {
  kind: VectorKind;
  tag: string;
  at: EpochMs;
}

/**
 * BM25 (MiniSearch's BM25+) over recall messages and archival passages, with Loci's
 * English + Chinese tokenizer for documents and queries. The app's index until ADR 0101; kept as
 * the reference the seeded differential test compares `Bm25LexicalIndex` with, and as the
 * benchmark's "today's index" baseline. Maintained incrementally: `add` indexes
 * new documents (re-adding an id replaces it), `remove` discards by id (MiniSearch vacuums the
 * postings later, in the background). Filters by kind, tag and date run on a side table, and
 * `search` returns up to `k` hits best first — pass a large `k` to count the total.
 */
export class MiniSearchLexicalIndex implements LexicalIndex {
  private readonly index: MiniSearch<LexicalDoc>;
  private readonly meta = new Map<string, Meta>();
  /**
   * The full hit lists of the last few queries, valid while `version` is unchanged: paging through
   * one query (page 2, 3 of a tool search) and auto-recall repeating the tool's query are free.
   */
  private readonly cache = new Map<string, LexicalHit[]>();
  private cacheVersion = 0;
  private version = 0;

  constructor() {
    this.index = new MiniSearch<LexicalDoc>({
      fields: ['text'],
      storeFields: [],
      tokenize: (text) => tokenize(text),
      // The tokenizer already lowercases, normalises and drops stop words.
      processTerm: (term) => term,
      searchOptions: { tokenize: (text) => tokenize(text), processTerm: (term) => term },
    });
  }

  add(docs: LexicalDoc[]): void {
    this.version += 1;
    const fresh: LexicalDoc[] = [];
    for (const doc of docs) {
      if (this.meta.has(doc.id)) this.index.discard(doc.id);
      this.meta.set(doc.id, { kind: doc.kind, tag: doc.tag, at: doc.at });
      fresh.push(doc);
    }
    // Re-adding an id inside one batch: only its last version is indexed.
    const last = new Map(fresh.map((d) => [d.id, d]));
    this.index.addAll([...last.values()]);
  }

  remove(ids: string[]): void {
    this.version += 1;
    for (const id of ids) {
      if (!this.meta.delete(id)) continue;
      this.index.discard(id);
    }
  }

  searchPage(query: LexicalQuery): LexicalPage {
    const all = this.search({ ...query, k: Number.MAX_SAFE_INTEGER });
    return { hits: all.slice(0, Math.max(0, query.k)), total: all.length };
  }

  search(query: LexicalQuery): LexicalHit[] {
    if (query.k <= 0 || this.meta.size === 0) return [];
    if (this.cacheVersion !== this.version) {
      this.cache.clear();
      this.cacheVersion = this.version;
    }
    const key = JSON.stringify([
      query.text,
      query.kinds,
      query.tags,
      query.tagsByKind,
      query.exclude,
      query.from,
      query.to,
    ]);
    let hits = this.cache.get(key);
    if (hits) {
      this.cache.delete(key); // re-insert: the Map's order is the LRU order
    } else {
      hits = this.searchAll(query);
      if (this.cache.size >= CACHED_QUERIES) this.cache.delete(this.cache.keys().next().value!);
    }
    this.cache.set(key, hits);
    return hits.length > query.k ? hits.slice(0, query.k) : hits.slice();
  }

  private searchAll(query: LexicalQuery): LexicalHit[] {
    const kinds = query.kinds ? new Set(query.kinds) : null;
    const tags = query.tags ? new Set(query.tags) : null;
    const exclude = new Set(query.exclude ?? []);
    const byKind = query.tagsByKind;
    const { from, to } = query;
    const filtered =
      kinds !== null ||
      tags !== null ||
      exclude.size > 0 ||
      byKind !== undefined ||
      from !== undefined ||
      to !== undefined;
    const results = this.index.search(query.text, {
      filter: filtered
        ? (r) => {
            const m = this.meta.get(r.id as string);
            return (
              m !== undefined &&
              !exclude.has(r.id as string) &&
              (byKind?.[m.kind] === undefined || byKind[m.kind]!.includes(m.tag)) &&
              (kinds === null || kinds.has(m.kind)) &&
              (tags === null || tags.has(m.tag)) &&
              (from === undefined || m.at >= from) &&
              (to === undefined || m.at <= to)
            );
          }
        : undefined,
    });
    const hits: LexicalHit[] = [];
    for (const r of results) {
      const m = this.meta.get(r.id as string);
      if (m) hits.push({ id: r.id as string, kind: m.kind, score: r.score });
    }
    return hits;
  }

  size(): number {
    return this.meta.size;
  }

  /** Forgets everything (agent switch). */
  clear(): void {
    this.version += 1;
    this.index.removeAll();
    this.meta.clear();
  }
}
