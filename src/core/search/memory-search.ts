/**
 * Memory search (R-rules, ADR 0071): one agent's search by words, meaning and both, wired to the
 * parts a newcomer looks for: indexing — load, index, embed, re-embed — (`search-index.ts`),
 * documents and row meta (`search-docs.ts`), query analysis (`query-analysis.ts`), ranking and
 * fusion (`search-ranking.ts`, `lexical-rerank.ts`, `fuse-ranks.ts`) and paging
 * (`search-paging.ts`).
 */
import type { AgentId, MessageRole } from '../model';
import type { MemorySearch, SearchHit, SearchPage, SearchQuery } from '../ports/memory-search';
import { RRF_K } from './fuse-ranks';
import { checkPage, toPage } from './search-paging';
import {
  fuseLists,
  lexicalRanking,
  queryMatcher,
  startVectorRankings,
  vectorRanking,
  type RankingDeps,
} from './search-ranking';
import { createSearchIndex, type ReembedOptions, type ReembedResult } from './search-index';
import type { MemorySearchDeps } from './memory-search-deps';

export type { MemorySearchDeps } from './memory-search-deps';

export {
  INDEX_SLICE_CHARS,
  LOAD_PAGE_CHARS,
  nextLoadPage,
  type ReembedOptions,
  type ReembedResult,
} from './search-index';

/** Roles indexed for recall by default: tool results, system text and events are noise. */
export const DEFAULT_INDEXED_ROLES: readonly MessageRole[] = ['user', 'assistant'];
/** How deep the vector list goes (a vector search "matches" its best `depth` rows). */
export const DEFAULT_VECTOR_DEPTH = 200;
const DAY_MS = 86_400_000;
/**
 * Lexical hits ranked per query (ADR 0101): every page a person reads and every list fusion
 * needs; the index counts the rest for page totals, so a frequent word does not cost a full sort.
 */
export const LEXICAL_DEPTH = 1000;

/**
 * Hybrid weighs the vector list at a tenth of the lexical one (ADR 0071): on conversational
 * memory names, numbers and rare words carry recall, and a small embedder's list is noisy.
 */
export const DEFAULT_VECTOR_WEIGHT = 0.1;

/** The search module, plus whether semantic (vector) search is available. */
export interface LociMemorySearch extends MemorySearch {
  /**
   * False without an embedder or vector index: then `vector` mode returns an empty page and
   * `hybrid` is lexical ranking (plus recency).
   */
  readonly semantic: boolean;
  /** Each query's page; hybrid queries share one vector pass (C23). */
  searchMany(queries: SearchQuery[]): Promise<SearchPage[]>;
  /** The agent whose indexes are loaded, or null. */
  readonly agentId: AgentId | null;
  /**
   * How many of the loaded agent's passages and messages have no vector from the current
   * embedder (after a model switch, or written while no embedder was chosen).
   */
  readonly unembedded: number;
  /**
   * Embeds them in the background (R18): batch by batch, persisted and searchable as each batch
   * lands. It stops early when the agent changes or `signal` aborts; another call carries on.
   */
  reembed(options?: ReembedOptions): Promise<ReembedResult>;
}

/** Builds the {@link MemorySearch} over the given indexes; indexes hold one agent at a time. */
export function createMemorySearch(deps: MemorySearchDeps): LociMemorySearch {
  const { store, lexical, clock } = deps;
  const roles = new Set<string>(deps.indexedRoles ?? DEFAULT_INDEXED_ROLES);
  // A tie-breaker only: a stronger term buried old but relevant turns (ADR 0071).
  const recencyWeight = deps.recencyWeight ?? 0.05 / (RRF_K + 1);
  const vectorWeight = deps.vectorWeight ?? DEFAULT_VECTOR_WEIGHT;
  const halfLife = deps.recencyHalfLifeMs ?? 30 * DAY_MS;
  const vectorDepth = deps.vectorDepth ?? DEFAULT_VECTOR_DEPTH;
  const index = createSearchIndex(deps, roles);
  const { meta, speakers, semantic, ready } = index;
  const ranking: RankingDeps = {
    lexical,
    embedder: semantic ? deps.embedder : null,
    vectors: semantic ? deps.vectors : null,
    meta,
    speakers,
    lexicalDepth: LEXICAL_DEPTH,
    vectorDepth,
  };

  const search = async (q: SearchQuery): Promise<SearchPage> => {
    checkPage(q.page, q.pageSize);
    await ready(q.agentId);
    const keep = queryMatcher(q, meta);
    switch (q.mode) {
      case 'lexical': {
        const page = lexicalRanking(ranking, q, keep);
        return toPage(page.hits, q, meta, store, Math.max(page.total, page.hits.length));
      }
      case 'vector':
        return toPage(await vectorRanking(ranking, q, keep), q, meta, store);
      case 'hybrid': {
        // The vector search is sent first, so a worker-hosted index searches meanwhile (C24).
        const vector = await startVectorRankings(ranking, [{ q, keep }]);
        const lexicalList = lexicalRanking(ranking, q, keep);
        const [vectorList = []] = await vector.lists;
        const fused = fuseLists(lexicalList.hits, vectorList, meta, {
          vectorWeight,
          now: clock.now(),
          recencyWeight,
          halfLife,
        });
        // Lexical matches past the ranked depth are counted, not ranked (ADR 0101).
        const unranked = Math.max(0, lexicalList.total - lexicalList.hits.length);
        return toPage(fused, q, meta, store, fused.length + unranked);
      }
    }
  };

  /** Hybrid queries share one vector pass; any other mode is searched on its own. */
  const searchMany = async (qs: SearchQuery[]): Promise<SearchPage[]> => {
    if (qs.length < 2 || qs.some((q) => q.mode !== 'hybrid' || q.agentId !== qs[0]!.agentId))
      return Promise.all(qs.map(search));
    for (const q of qs) checkPage(q.page, q.pageSize);
    await ready(qs[0]!.agentId);
    const asked = qs.map((q) => ({ q, keep: queryMatcher(q, meta) }));
    const vector = await startVectorRankings(ranking, asked);
    const lexicalLists = asked.map(({ q, keep }) => lexicalRanking(ranking, q, keep));
    const vectorLists = await vector.lists;
    const now = clock.now();
    return Promise.all(
      qs.map((q, i) => {
        const lexicalList = lexicalLists[i]!;
        const fused = fuseLists(lexicalList.hits, vectorLists[i] ?? [], meta, {
          vectorWeight,
          now,
          recencyWeight,
          halfLife,
        });
        const unranked = Math.max(0, lexicalList.total - lexicalList.hits.length);
        return toPage(fused, q, meta, store, fused.length + unranked);
      }),
    );
  };

  return {
    get semantic() {
      return semantic;
    },
    get agentId() {
      return index.agentId;
    },
    get unembedded() {
      return index.unembedded;
    },
    reembed: index.reembed,
    search,
    searchMany,
    async searchByDate(agentId, from, to, page, pageSize) {
      checkPage(page, pageSize);
      await ready(agentId);
      // The index's own messages (visible text only, R19), in the order they were written.
      const inRange: string[] = [];
      for (const [id, m] of meta) {
        if (m.kind === 'message' && m.at >= from && m.at <= to) inRange.push(id);
      }
      const ids = inRange.slice((page - 1) * pageSize, page * pageSize);
      const byId = new Map((ids.length ? await store.getMessages(ids) : []).map((m) => [m.id, m]));
      const hits: SearchHit[] = [];
      for (const id of ids) {
        const m = byId.get(id);
        if (m) hits.push({ id, kind: 'message', score: 1, text: m.text, at: m.at, message: m });
      }
      return { hits, total: inRange.length, page, pageSize };
    },
    indexMessages: index.indexMessages,
    indexPassages: index.indexPassages,
    removePassages: index.removePassages,
    removeMessages: index.removeMessages,
    loadAgent: index.loadAgent,
  };
}
