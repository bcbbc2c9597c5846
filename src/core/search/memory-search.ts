/**
 * Memory search (R-rules, ADR 0071): the lifecycle of one agent's indexes — load, index,
 * embed, re-embed — wired to the parts a newcomer looks for: documents and row meta
 * (`search-docs.ts`), query analysis (`query-analysis.ts`), ranking and fusion
 * (`search-ranking.ts`, `lexical-rerank.ts`, `fuse-ranks.ts`) and paging (`search-paging.ts`).
 */
import { AppError } from '../errors';
import type { AgentId, Message, MessageRole, Passage } from '../model';
import type { Clock } from '../ports/clock';
import type { Embedder } from '../ports/embedder';
import type { LexicalDoc, LexicalIndex } from '../ports/lexical-index';
import type { MemorySearch, SearchHit, SearchPage, SearchQuery } from '../ports/memory-search';
import type { MemoryStore } from '../ports/memory-store';
import type { VectorEntry, VectorIndex } from '../ports/vector-index';
import { RRF_K } from './fuse-ranks';
import { createDocBuilder, MAX_INDEXED_CHARS, type SearchMeta } from './search-docs';
import { checkPage, toPage } from './search-paging';
import {
  fuseLists,
  lexicalRanking,
  queryMatcher,
  startVectorRankings,
  vectorRanking,
  type RankingDeps,
} from './search-ranking';
import type { VectorStore } from './vector-store';

/** Roles indexed for recall by default: tool results, system text and events are noise. */
export const DEFAULT_INDEXED_ROLES: readonly MessageRole[] = ['user', 'assistant'];
/** How deep the vector list goes (a vector search "matches" its best `depth` rows). */
export const DEFAULT_VECTOR_DEPTH = 200;
const DAY_MS = 86_400_000;
/** Rows read per store query while loading an agent. */
const LOAD_CHUNK = 5_000;
/** Messages read by the first store query of a load; later pages adapt (X181). */
const FIRST_LOAD_PAGE = 16;
/** Characters of message text one load query aims to read (X181). */
export const LOAD_PAGE_CHARS = 4_000_000;

/** The next load page: aimed at {@link LOAD_PAGE_CHARS}, growing at most 4× a step. */
export function nextLoadPage(limit: number, chars: number): number {
  const aimed = Math.floor((limit * LOAD_PAGE_CHARS) / Math.max(1, chars));
  return Math.max(1, Math.min(LOAD_CHUNK, limit * 4, aimed));
}
/** Characters of documents the lexical index takes between two `yieldToHost` calls (X181). */
export const INDEX_SLICE_CHARS = 200_000;
/**
 * Lexical hits ranked per query (ADR 0101): every page a person reads and every list fusion
 * needs; the index counts the rest for page totals, so a frequent word does not cost a full sort.
 */
export const LEXICAL_DEPTH = 1000;

export interface MemorySearchDeps {
  store: MemoryStore;
  lexical: LexicalIndex;
  vectors: VectorIndex | null;
  embedder: Embedder | null;
  clock: Clock;
  /** Where message embeddings persist; without it messages are embedded but not saved. */
  vectorStore?: VectorStore | null;
  /** Roles of messages worth indexing (default user + assistant). */
  indexedRoles?: readonly MessageRole[];
  /** Recency term weight in hybrid mode; default a quarter of a rank-1 RRF score. */
  recencyWeight?: number;
  recencyHalfLifeMs?: number;
  vectorDepth?: number;
  /** Weight of the vector list in hybrid fusion (the lexical list weighs 1). */
  vectorWeight?: number;
  /**
   * Lets the page paint between slices of the lexical index while an agent loads (X181), e.g.
   * a `setTimeout(0)` promise. Without it the slices run back to back.
   */
  yieldToHost?: () => Promise<void>;
}

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

export interface ReembedOptions {
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
  /** Texts per embedder call; default 32. */
  batch?: number;
}

export interface ReembedResult {
  passages: number;
  messages: number;
  /** False when it stopped early (agent switched, aborted). */
  complete: boolean;
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
  const semantic = deps.embedder !== null && deps.vectors !== null;
  const meta = new Map<string, SearchMeta>();
  const docs = createDocBuilder(roles, meta);
  const { indexable, messageDoc, passageDoc, speakers } = docs;
  let active: AgentId | null = null;
  let generation = 0;
  let loading: Promise<void> | null = null;
  /** Ids of the loaded agent's rows that have no vector from the current embedder. */
  let pendingPassages = new Set<string>();
  let pendingMessages = new Set<string>();

  const usable = (p: Passage): p is Passage & { embedding: Float32Array } =>
    p.embedding !== null &&
    deps.embedder !== null &&
    p.embeddingModel === deps.embedder.modelId &&
    p.embedding.length === deps.embedder.dimension;

  function indexLexically(docs: LexicalDoc[]): void {
    for (const d of docs)
      if (!meta.has(d.id)) meta.set(d.id, { kind: d.kind, at: d.at, tag: d.tag });
    lexical.add(docs);
  }

  /**
   * {@link indexLexically} in slices of about {@link INDEX_SLICE_CHARS} characters with a yield
   * between them, so loading a long history never holds the page in one task (X181). False when
   * the agent was switched meanwhile.
   */
  async function indexInSlices(docs: LexicalDoc[], gen: number): Promise<boolean> {
    let from = 0;
    while (from < docs.length) {
      let to = from;
      let chars = 0;
      while (
        to < docs.length &&
        (to === from || chars + docs[to]!.text.length <= INDEX_SLICE_CHARS)
      )
        chars += docs[to++]!.text.length;
      if (from > 0) {
        await deps.yieldToHost?.();
        if (gen !== generation) return false;
      }
      indexLexically(docs.slice(from, to));
      from = to;
    }
    return true;
  }

  async function embedMessages(agentId: AgentId, messages: Message[], gen: number): Promise<void> {
    const embedder = deps.embedder;
    if (!embedder || !deps.vectors || messages.length === 0) return;
    // The first MAX_INDEXED_CHARS, as the lexical index reads (X180): an embedder keeps only
    // its first few hundred tokens anyway, and posting whole 1 MB texts to its worker was a
    // 237 ms task of the page (X189).
    const vectors = await embedder.embedPassages(
      messages.map((m) =>
        m.text.length > MAX_INDEXED_CHARS ? m.text.slice(0, MAX_INDEXED_CHARS) : m.text,
      ),
    );
    if (gen !== generation) return; // the agent was switched while we embedded
    const d = embedder.dimension;
    const data = new Float32Array(messages.length * d);
    vectors.forEach((v, i) => {
      if (v.length !== d) {
        throw new AppError(
          'embedding_dimension_mismatch',
          `The embedder returned ${v.length} dimensions; it declares ${d}.`,
        );
      }
      data.set(v, i * d);
    });
    await deps.vectors.add(
      messages.map((m, i) => ({ id: m.id, kind: 'message', vector: vectors[i]! })),
    );
    await deps.vectorStore?.putVectors(agentId, {
      kind: 'message',
      modelId: embedder.modelId,
      dimension: d,
      ids: messages.map((m) => m.id),
      data,
    });
  }

  /** Embeds passages with the current embedder, stores them with their vectors, indexes them. */
  async function embedPassagesNow(missing: Passage[], gen: number): Promise<void> {
    const embedder = deps.embedder;
    if (!embedder || !deps.vectors || missing.length === 0) return;
    const vectors = await embedder.embedPassages(missing.map((p) => p.text));
    if (gen !== generation) return;
    const embedded = missing.map((p, i) => ({
      ...p,
      embedding: vectors[i]!,
      embeddingModel: embedder.modelId,
      dimension: embedder.dimension,
    }));
    await store.apply({ passages: embedded });
    await deps.vectors.add(
      embedded.map((p) => ({ id: p.id, kind: 'passage', vector: p.embedding })),
    );
    for (const p of missing) pendingPassages.delete(p.id);
  }

  async function reembed(options: ReembedOptions = {}): Promise<ReembedResult> {
    if (loading) await loading;
    const agentId = active;
    const gen = generation;
    const batch = Math.max(1, options.batch ?? 32);
    const result: ReembedResult = { passages: 0, messages: 0, complete: true };
    if (!semantic || agentId === null) return result;
    const passageIds = [...pendingPassages];
    // Without a vector store, message vectors are not persisted: nothing to catch up on.
    const messageIds = deps.vectorStore ? [...pendingMessages] : [];
    const total = passageIds.length + messageIds.length;
    if (total === 0) return result;
    const live = () => gen === generation && !options.signal?.aborted;
    let done = 0;
    options.onProgress?.(0, total);
    for (let i = 0; i < passageIds.length; i += batch) {
      if (!live()) return { ...result, complete: false };
      const ids = passageIds.slice(i, i + batch);
      // Read again: the row may have been embedded, edited or deleted since the load.
      const rows = (await store.getPassages(ids)).filter((p) => !usable(p));
      await embedPassagesNow(rows, gen);
      for (const id of ids) pendingPassages.delete(id);
      result.passages += rows.length;
      done += ids.length;
      options.onProgress?.(done, total);
    }
    for (let i = 0; i < messageIds.length; i += batch) {
      if (!live()) return { ...result, complete: false };
      const ids = messageIds.slice(i, i + batch);
      const rows = (await store.getMessages(ids)).filter(indexable);
      await embedMessages(agentId, rows, gen);
      if (gen !== generation) return { ...result, complete: false };
      for (const id of ids) pendingMessages.delete(id);
      result.messages += rows.length;
      done += ids.length;
      options.onProgress?.(done, total);
    }
    return result;
  }

  async function load(agentId: AgentId, gen: number): Promise<void> {
    // The lexical index has clear() beyond the port: far cheaper than discarding 10⁵ ids.
    const clearable = lexical as LexicalIndex & { clear?: () => void };
    if (clearable.clear) clearable.clear();
    else if (meta.size > 0) lexical.remove([...meta.keys()]);
    meta.clear();
    docs.reset();
    await deps.vectors?.clear();
    pendingPassages = new Set();
    pendingMessages = new Set();
    const embedder = deps.embedder;
    // Pages by the last seq read, not by seq ranges: a gap in the seqs (or a huge seq) costs
    // nothing, and the number of queries follows the number of messages.
    // The page size adapts to the messages' length (X181): the browser decodes a whole page in
    // one task, so a page of 1 MB messages holds a few, a page of short ones up to LOAD_CHUNK.
    for (let fromSeq = 1, limit = FIRST_LOAD_PAGE; ;) {
      // The first page is read one row at a time: before a page size is aimed at characters,
      // 16 rows of megabytes in one result blocked the page (X189).
      const chunk = await store.queryMessages(agentId, { fromSeq, limit, oneByOne: fromSeq === 1 });
      if (gen !== generation) return;
      if (!(await indexInSlices(chunk.filter(indexable).map(messageDoc), gen))) return;
      const last = chunk[chunk.length - 1];
      if (chunk.length < limit || last === undefined) break;
      fromSeq = last.seq + 1;
      let chars = 0;
      for (const m of chunk) chars += m.text.length;
      limit = nextLoadPage(limit, chars);
    }
    for (let offset = 0; ; offset += LOAD_CHUNK) {
      const chunk = await store.queryPassages(agentId, { offset, limit: LOAD_CHUNK });
      if (gen !== generation) return;
      if (!(await indexInSlices(chunk.map(passageDoc), gen))) return;
      if (semantic) {
        const entries = chunk
          .filter(usable)
          .map((p): VectorEntry => ({ id: p.id, kind: 'passage', vector: p.embedding }));
        for (const p of chunk) if (!usable(p)) pendingPassages.add(p.id);
        await deps.vectors?.add(entries);
      }
      if (chunk.length < LOAD_CHUNK) break;
    }
    if (semantic && embedder && deps.vectorStore) {
      const batches = await deps.vectorStore.loadVectors(agentId, embedder.modelId);
      if (gen !== generation) return;
      const vectored = new Set<string>();
      for (const b of batches)
        if (b.dimension === embedder.dimension) for (const id of b.ids) vectored.add(id);
      for (const [id, m] of meta)
        if (m.kind === 'message' && !vectored.has(id)) pendingMessages.add(id);
      for (const b of batches) {
        if (b.dimension !== embedder.dimension) continue;
        const entries: VectorEntry[] = [];
        b.ids.forEach((id, i) => {
          if (meta.has(id))
            entries.push({
              id,
              kind: b.kind,
              // A copy, not a subarray: posting a view to the embed worker would clone the
              // whole batch buffer once per vector.
              vector: b.data.slice(i * b.dimension, (i + 1) * b.dimension),
            });
        });
        await deps.vectors?.add(entries);
      }
    }
  }

  async function loadAgent(agentId: AgentId): Promise<void> {
    generation += 1;
    const gen = generation;
    active = agentId;
    const run = load(agentId, gen);
    loading = run;
    try {
      await run;
    } finally {
      if (loading === run) loading = null;
    }
  }

  async function ready(agentId: AgentId): Promise<void> {
    if (active !== agentId) await loadAgent(agentId);
    else if (loading) await loading;
  }

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
      return active;
    },
    get unembedded() {
      return semantic ? pendingPassages.size + (deps.vectorStore ? pendingMessages.size : 0) : 0;
    },
    reembed,
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
    async indexMessages(messages) {
      if (active === null) return; // loadAgent reads them from the store later
      const agentId = active;
      const mine = messages.filter((m) => m.agentId === agentId && indexable(m));
      indexLexically(mine.map(messageDoc));
      await embedMessages(agentId, mine, generation);
    },
    async indexPassages(passages) {
      if (active === null) return;
      const agentId = active;
      const gen = generation;
      const mine = passages.filter((p) => p.agentId === agentId);
      indexLexically(mine.map(passageDoc));
      if (!semantic || !deps.embedder || !deps.vectors) return;
      const ready = mine.filter(usable);
      await deps.vectors.add(
        ready.map((p) => ({ id: p.id, kind: 'passage', vector: p.embedding })),
      );
      await embedPassagesNow(
        mine.filter((p) => !usable(p)),
        gen,
      );
    },
    async removePassages(agentId, ids) {
      if (agentId !== active) return;
      lexical.remove(ids);
      for (const id of ids) meta.delete(id);
      await deps.vectors?.remove(ids);
    },
    async removeMessages(agentId, ids) {
      // Persisted vectors of deleted messages stay in their batch; `load` skips ids it has no
      // message for, and a restore brings the message (and so its vector) back.
      if (agentId !== active) return;
      lexical.remove(ids);
      for (const id of ids) {
        meta.delete(id);
        pendingMessages.delete(id);
      }
      await deps.vectors?.remove(ids);
    },
    loadAgent,
  };
}
