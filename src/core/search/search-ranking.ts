/**
 * Ranking half of memory search: the query's filters, the lexical list (BM25, re-ranked by
 * what the query asks: named speakers, "when", months — query-analysis.ts), the vector list,
 * and their reciprocal-rank fusion with a recency term for `hybrid` (ADR 0071, 0101).
 */
import type { Embedder } from '../ports/embedder';
import type { LexicalIndex } from '../ports/lexical-index';
import type { SearchQuery } from '../ports/memory-search';
import type { VectorIndex } from '../ports/vector-index';
import type { EpochMs } from '../units';
import { fuseRanks, type RankedId } from './fuse-ranks';
import { DEFAULT_RERANK, rerankLexical } from './lexical-rerank';
import { analyzeQuery } from './query-analysis';
import type { SearchMeta } from './search-docs';

export type Ranked = { id: string; score: number }[];

/** Whether an indexed row passes the query's kinds, roles, source type, dates and exclusions. */
export function queryMatcher(
  q: SearchQuery,
  meta: ReadonlyMap<string, SearchMeta>,
): (id: string) => boolean {
  const kinds = new Set(q.kinds);
  const roleSet = q.roles ? new Set<string>(q.roles) : null;
  const exclude = new Set(q.exclude ?? []);
  return (id) => {
    const m = meta.get(id);
    if (!m || exclude.has(id) || !kinds.has(m.kind)) return false;
    if (q.from !== undefined && m.at < q.from) return false;
    if (q.to !== undefined && m.at > q.to) return false;
    if (m.kind === 'message') return roleSet === null || roleSet.has(m.tag);
    return q.sourceType === undefined || m.tag === q.sourceType;
  };
}

export interface RankingDeps {
  lexical: LexicalIndex;
  /** Null when semantic search is off. */
  embedder: Embedder | null;
  vectors: VectorIndex | null;
  meta: ReadonlyMap<string, SearchMeta>;
  speakers: ReadonlySet<string>;
  lexicalDepth: number;
  vectorDepth: number;
}

/** The lexical list for `q` (empty in vector mode or for an empty query) and its match count. */
export function lexicalRanking(
  deps: RankingDeps,
  q: SearchQuery,
  keep: (id: string) => boolean,
): { hits: Ranked; total: number } {
  if (q.mode === 'vector' || q.text.trim() === '') return { hits: [], total: 0 };
  const page = deps.lexical.searchPage({
    text: q.text,
    k: Math.max(deps.lexicalDepth, q.page * q.pageSize),
    kinds: q.kinds,
    from: q.from,
    to: q.to,
    exclude: q.exclude,
    tagsByKind: {
      ...(q.roles ? { message: q.roles } : {}),
      ...(q.sourceType ? { passage: [q.sourceType] } : {}),
    },
  });
  const hits = rerankLexical(
    page.hits.filter((h) => keep(h.id)),
    analyzeQuery(q.text, deps.speakers),
    (id) => deps.meta.get(id),
    DEFAULT_RERANK,
  );
  return { hits, total: page.total };
}

/** The vector list for `q`: the best `vectorDepth` (or the pages asked) with a positive score. */
export async function vectorRanking(
  deps: RankingDeps,
  q: SearchQuery,
  keep: (id: string) => boolean,
): Promise<Ranked> {
  const [list = []] = await (await startVectorRankings(deps, [{ q, keep }])).lists;
  return list;
}

/**
 * The vector list of each query, as {@link vectorRanking} gives it, from one pass over the
 * vectors when the queries ask for the same depth and kinds (C23, ADR 0168) — in two halves
 * (C24, ADR 0178): it resolves once the queries are embedded and their search has been sent to
 * the index, with `lists` still pending. The caller ranks
 * lexically meanwhile, so a vector index hosted in a worker (the app's embed worker) searches
 * while the page scores BM25 — a turn waits for the longer of the two, not their sum.
 */
export async function startVectorRankings(
  deps: RankingDeps,
  queries: readonly { q: SearchQuery; keep: (id: string) => boolean }[],
): Promise<{ lists: Promise<Ranked[]> }> {
  const { embedder, vectors } = deps;
  const lists = queries.map((): Ranked => []);
  const asked = queries
    .map(({ q, keep }, at) => {
      const depth = Math.max(deps.vectorDepth, q.page * q.pageSize);
      const narrowed = q.roles || q.from !== undefined || q.to !== undefined || q.sourceType;
      // Excluded ids (the in-context queue) can take out at most as many hits as there are of
      // them, so they need that many more, not four times the depth (ADR 0096): the same list.
      const k = narrowed ? depth * 4 : depth + (q.exclude?.length ?? 0);
      return { at, q, keep, depth, k };
    })
    .filter(({ q }) => q.text.trim() !== '');
  if (!embedder || !vectors || asked.length === 0) return { lists: Promise.resolve(lists) };
  const embedded = await Promise.all(asked.map(({ q }) => embedder.embedQuery(q.text)));
  const first = asked[0]!;
  const sameOptions = asked.every(
    ({ k, q }) => k === first.k && q.kinds.join() === first.q.kinds.join(),
  );
  const found =
    sameOptions && vectors.searchMany && asked.length > 1
      ? vectors.searchMany(embedded, { k: first.k, kinds: first.q.kinds })
      : Promise.all(
          asked.map(({ k, q }, i) => vectors.search(embedded[i]!, { k, kinds: q.kinds })),
        );
  const done = found.then((hits) => {
    asked.forEach(({ at, keep, depth }, i) => {
      lists[at] = (hits[i] ?? []).filter((h) => h.score > 0 && keep(h.id)).slice(0, depth);
    });
    return lists;
  });
  // Awaited by the caller after its lexical pass; a failure is never left unobserved meanwhile.
  done.catch(() => {});
  return { lists: done };
}

export interface FusionWeights {
  vectorWeight: number;
  recencyWeight: number;
  halfLife: number;
  now: EpochMs;
}

/** Reciprocal-rank fusion of the lexical list (weight 1) and the vector list, plus recency. */
export function fuseLists(
  lexicalList: Ranked,
  vectorList: Ranked,
  meta: ReadonlyMap<string, SearchMeta>,
  weights: FusionWeights,
): Ranked {
  const withAt = (list: { id: string }[]): RankedId[] =>
    list.map((h) => ({ id: h.id, at: meta.get(h.id)!.at }));
  return fuseRanks([withAt(lexicalList), withAt(vectorList)], {
    weights: [1, weights.vectorWeight],
    now: weights.now,
    recencyWeight: weights.recencyWeight,
    recencyHalfLifeMs: weights.halfLife,
  });
}
