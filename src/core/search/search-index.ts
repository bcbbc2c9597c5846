/**
 * The indexing half of memory search (issue 13 item 5): loads one agent's messages and passages
 * into the lexical and vector indexes in slices (X181), keeps both in step as rows are written,
 * removed or re-embedded, and tracks what still lacks a vector from the current embedder (R18).
 * Searching lives in `memory-search.ts`; documents and row meta in `search-docs.ts`.
 */
import { AppError } from '../errors';
import type { AgentId, Message, Passage } from '../model';
import type { LexicalDoc, LexicalIndex } from '../ports/lexical-index';
import type { VectorEntry } from '../ports/vector-index';
import type { MemorySearchDeps } from './memory-search-deps';
import { createDocBuilder, MAX_INDEXED_CHARS, type SearchMeta } from './search-docs';

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

/** One agent's loaded indexes and their upkeep; `createMemorySearch` searches them. */
export interface SearchIndex {
  /** Kind, time and tag of every indexed row, by id. */
  readonly meta: Map<string, SearchMeta>;
  /** The authors seen in the loaded messages (lower-cased), for query analysis. */
  readonly speakers: ReadonlySet<string>;
  /** Whether an embedder and a vector index are there. */
  readonly semantic: boolean;
  /** The agent whose indexes are loaded, or null. */
  readonly agentId: AgentId | null;
  /** Rows of the loaded agent without a vector from the current embedder. */
  readonly unembedded: number;
  /** Resolves once `agentId`'s indexes are loaded (loading them when another agent's are). */
  ready(agentId: AgentId): Promise<void>;
  loadAgent(agentId: AgentId): Promise<void>;
  reembed(options?: ReembedOptions): Promise<ReembedResult>;
  indexMessages(messages: Message[]): Promise<void>;
  indexPassages(passages: Passage[]): Promise<void>;
  removePassages(agentId: AgentId, ids: string[]): Promise<void>;
  removeMessages(agentId: AgentId, ids: string[]): Promise<void>;
}

/** Builds the {@link SearchIndex} over `deps`' indexes; they hold one agent at a time. */
export function createSearchIndex(deps: MemorySearchDeps, roles: ReadonlySet<string>): SearchIndex {
  const { store, lexical } = deps;
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

  async function indexMessages(messages: Message[]): Promise<void> {
    if (active === null) return; // loadAgent reads them from the store later
    const agentId = active;
    const mine = messages.filter((m) => m.agentId === agentId && indexable(m));
    indexLexically(mine.map(messageDoc));
    await embedMessages(agentId, mine, generation);
  }

  async function indexPassages(passages: Passage[]): Promise<void> {
    if (active === null) return;
    const agentId = active;
    const gen = generation;
    const mine = passages.filter((p) => p.agentId === agentId);
    indexLexically(mine.map(passageDoc));
    if (!semantic || !deps.embedder || !deps.vectors) return;
    const ready = mine.filter(usable);
    await deps.vectors.add(ready.map((p) => ({ id: p.id, kind: 'passage', vector: p.embedding })));
    await embedPassagesNow(
      mine.filter((p) => !usable(p)),
      gen,
    );
  }

  async function removePassages(agentId: AgentId, ids: string[]): Promise<void> {
    if (agentId !== active) return;
    lexical.remove(ids);
    for (const id of ids) meta.delete(id);
    await deps.vectors?.remove(ids);
  }

  async function removeMessages(agentId: AgentId, ids: string[]): Promise<void> {
    // Persisted vectors of deleted messages stay in their batch; `load` skips ids it has no
    // message for, and a restore brings the message (and so its vector) back.
    if (agentId !== active) return;
    lexical.remove(ids);
    for (const id of ids) {
      meta.delete(id);
      pendingMessages.delete(id);
    }
    await deps.vectors?.remove(ids);
  }

  return {
    meta,
    speakers,
    semantic,
    get agentId() {
      return active;
    },
    get unembedded() {
      return semantic ? pendingPassages.size + (deps.vectorStore ? pendingMessages.size : 0) : 0;
    },
    ready,
    loadAgent,
    reembed,
    indexMessages,
    indexPassages,
    removePassages,
    removeMessages,
  };
}
