import { AppError } from '../errors';
import type {
  AgentId,
  ConversationId,
  DocumentId,
  DocumentMeta,
  Message,
  Passage,
  PassageId,
} from '../model';
import type { Clock, IdSource } from '../ports/clock';
import type { Embedder } from '../ports/embedder';
import type { MemorySearch } from '../ports/memory-search';
import type { MemoryStore, NewMessage } from '../ports/memory-store';
import type { Tokenizer } from '../ports/tokenizer';
import { estimateTokens } from '../tokens/estimate-tokenizer';
import {
  DEFAULT_CHUNK_OPTIONS,
  iterateChunks,
  type ChunkOptions,
  type DocumentChunk,
} from './chunk';
import { documentImportedText } from './document-imported-event';
import type {
  ChunkedDocument,
  DocumentSource,
  ParseProgress,
  ReadDocument,
} from './document-source';
import { embedInBatches } from './embed-in-batches';
import { joinHeadingPath, passageEmbeddingText } from './passage-embedding-text';
import { documentTitle } from './parsed-document';

/** The ports an import needs. */
export interface IngestDeps {
  store: MemoryStore;
  search: MemorySearch;
  /**
   * Null when no embedding model is chosen: the document is then stored and searched by its words,
   * and its passages wait without vectors for the background catch-up (ADR 0084) once one is.
   */
  embedder: Embedder | null;
  clock: Clock;
  ids: IdSource;
  /** Counts the event message's tokens; the core estimator when absent. */
  tokenizer?: Tokenizer;
  /**
   * Awaited between chunking slices and embedding batches, so an import on a UI thread lets it
   * paint (e.g. a `setTimeout(0)` or `scheduler.yield()` promise). Not needed in a worker.
   */
  yieldToHost?: () => Promise<void>;
}

/** Progress of one document, in stage order: read → parsed → chunked → embedded x/N → indexed. */
export type IngestProgress =
  | { type: 'reading'; loadedBytes: number; totalBytes: number }
  /** Characters of the document text chunked so far (X179). */
  | { type: 'parsing'; doneChars: number; totalChars: number }
  | { type: 'chunked'; passages: number }
  | { type: 'embedding'; done: number; total: number }
  | { type: 'indexed'; documentId: DocumentId; passages: number };

/** How an import ended (expected outcomes; faults throw an `AppError`). */
export type IngestOutcome =
  | {
      type: 'imported';
      document: DocumentMeta;
      passageIds: PassageId[];
      /** The "document imported" event, as written (with its seq). */
      event: Message;
    }
  /** The same bytes (content hash) were already imported for this agent: nothing was written. */
  | { type: 'duplicate'; document: DocumentMeta }
  /** Cancelled before the commit: nothing was written. */
  | { type: 'cancelled' };

/** Per-import options: cancel signal, progress callback, chunk sizes, embed batch size. */
export interface IngestOptions {
  signal?: AbortSignal;
  onProgress?: (progress: IngestProgress) => void;
  chunk?: Partial<ChunkOptions>;
  /** Texts per embedder call. */
  batchSize?: number;
  /**
   * Passages per change set. Unset (the default): one change set for the whole document, which
   * is simplest and crash-proof but clones every vector in one task. Set it (e.g. 256) when the
   * import runs on a UI thread, so each commit is a short task (ADR 0050).
   */
  commitEvery?: number;
  /**
   * The conversation whose queue gets the "document imported" event (the one the user imported
   * it from); absent: the agent's first. The passages are the agent's, searchable from all (A22).
   */
  conversationId?: ConversationId;
}

/** Chunks produced between two `yieldToHost` calls while chunking. */
const CHUNKS_PER_SLICE = 16;
/** Passages built between two `yieldToHost` calls. */
const PASSAGES_PER_SLICE = 2_048;
/** Passages handed to the search indexes at a time (the lexical index adds synchronously). */
const INDEX_BATCH = 64;

/**
 * Imports one document into an agent's archival storage: read (with byte progress) → content-hash
 * dedupe → parse and chunk (with progress) → embed in batches (with x/N progress) → one
 * `MemoryStore.apply` that writes the passages with their vectors, the document (status
 * `indexed`) and the "document imported" event message together → `MemorySearch.indexPassages`.
 *
 * Because everything is written in that one change set, a cancel (via `signal`), a crash or a
 * failure before it leaves nothing behind (ADR 0050); a cancel after it is too late and the
 * outcome is `imported`. With `commitEvery` the passages are written in batches instead, and a
 * cancel or failure deletes what was written (spec D39); each batch's chunks are then fetched
 * from the source only when it is built, and indexed from the store after the last commit, so
 * the caller never holds the whole document's passages (X177). Faults — unreadable file,
 * embedder failure, storage errors — reject with an `AppError` (`document_parse_failed`,
 * `embedder_failed`, `storage_*`). If indexing fails after the commit, the document is stored
 * and `MemorySearch.loadAgent` indexes it on the next load.
 */
export async function ingestDocument(
  deps: IngestDeps,
  agentId: AgentId,
  source: DocumentSource,
  options: IngestOptions = {},
): Promise<IngestOutcome> {
  const { store } = deps;
  const { signal, onProgress } = options;
  try {
    onProgress?.({ type: 'reading', loadedBytes: 0, totalBytes: source.bytes });
    const read = await source.read(
      (loadedBytes) => onProgress?.({ type: 'reading', loadedBytes, totalBytes: source.bytes }),
      signal,
    );
    if (signal?.aborted) return { type: 'cancelled' };
    const existing = await store.findDocumentByHash(agentId, read.contentHash);
    if (existing !== undefined) return { type: 'duplicate', document: existing };

    const onParse = (p: ParseProgress): void => onProgress?.({ type: 'parsing', ...p });
    const prepared = await parseAndChunk(read, options.chunk, onParse, deps.yieldToHost, signal);
    if (prepared === null) return { type: 'cancelled' };
    try {
      return await importChunks(deps, agentId, source, read.contentHash, prepared, options);
    } finally {
      prepared.release();
    }
  } catch (error) {
    if (error instanceof AppError && error.code === 'cancelled') return { type: 'cancelled' };
    throw AppError.from(error);
  }
}

async function importChunks(
  deps: IngestDeps,
  agentId: AgentId,
  source: DocumentSource,
  contentHash: string,
  prepared: ChunkedDocument,
  options: IngestOptions,
): Promise<IngestOutcome> {
  const { embedder, clock, ids } = deps;
  const { title, mimeType, count } = prepared;
  if (options.signal?.aborted) return { type: 'cancelled' };
  if (count === 0) {
    throw new AppError('document_parse_failed', `“${title}” contains no text to import.`);
  }
  options.onProgress?.({ type: 'chunked', passages: count });
  const at = clock.now();
  const documentId = ids.next('doc');
  const document: DocumentMeta = {
    id: documentId,
    agentId,
    title,
    mimeType,
    bytes: source.bytes,
    contentHash,
    status: 'indexed',
    passages: count,
    embedded: embedder === null ? 0 : count,
    at,
  };
  const plan: CommitPlan = { chunks: prepared, document, options };
  const committed =
    options.commitEvery !== undefined && options.commitEvery < count
      ? await commitInBatches(deps, plan, options.commitEvery)
      : await commitAtOnce(deps, plan);
  if (committed.type !== 'committed') return committed;

  const { passageIds } = committed;
  for (let k = 0; k < passageIds.length; k += INDEX_BATCH) {
    const batch =
      committed.passages?.slice(k, k + INDEX_BATCH) ??
      (await deps.store.getPassages(passageIds.slice(k, k + INDEX_BATCH)));
    await deps.search.indexPassages(batch);
    await deps.yieldToHost?.();
  }
  options.onProgress?.({ type: 'indexed', documentId, passages: count });
  return { type: 'imported', document, passageIds, event: committed.event };
}

interface CommitPlan {
  /** Where the chunks are fetched from, a slice at a time. */
  chunks: ChunkedDocument;
  /** The finished document row (`indexed`). */
  document: DocumentMeta;
  options: IngestOptions;
}

/** Passages without vectors yet, and what to embed for each. */
interface Built {
  passages: Passage[];
  texts: string[];
}

type Committed =
  | {
      type: 'committed';
      event: Message;
      passageIds: PassageId[];
      /** The passages as written, when they are all still at hand (else read back to index). */
      passages?: Passage[];
    }
  | Extract<IngestOutcome, { type: 'cancelled' | 'duplicate' }>;

/** The passages of chunks `[from, to)`, built in slices; null when cancelled. */
async function buildPassages(
  deps: IngestDeps,
  plan: CommitPlan,
  from: number,
  to: number,
): Promise<Built | null> {
  const { document, options } = plan;
  const { embedder } = deps;
  const built: Built = { passages: [], texts: [] };
  for (let k = from; k < to; k += PASSAGES_PER_SLICE) {
    const chunks = await plan.chunks.slice(k, Math.min(to, k + PASSAGES_PER_SLICE));
    for (const c of chunks) {
      const heading = joinHeadingPath(c.headingPath);
      built.texts.push(passageEmbeddingText(document.title, heading, c.text));
      built.passages.push({
        id: deps.ids.next('psg'),
        agentId: document.agentId,
        text: c.text,
        source: documentSourceOf(document.id, c, heading),
        tags: [],
        at: document.at,
        embedding: null,
        embeddingModel: embedder?.modelId ?? null,
        dimension: embedder?.dimension ?? 0,
      });
    }
    if (to - from > PASSAGES_PER_SLICE) await deps.yieldToHost?.();
    if (options.signal?.aborted) return null;
  }
  return built;
}

/** The "document imported" event, made after the passages so ids come in today's order. */
function importedEvent(deps: IngestDeps, plan: CommitPlan): NewMessage {
  const { document, options } = plan;
  const text = documentImportedText(document.title, document.passages);
  return {
    id: deps.ids.next('msg'),
    agentId: document.agentId,
    ...(options.conversationId !== undefined ? { conversationId: options.conversationId } : {}),
    role: 'event',
    text,
    at: document.at,
    inContext: true,
    tokens: deps.tokenizer?.countMessage('event', text) ?? estimateTokens(text),
  };
}

/** Embeds the built passages (the `offset`-th of `total` onwards) in place; false when cancelled. */
async function embedBuilt(
  deps: IngestDeps,
  plan: CommitPlan,
  built: Built,
  offset: number,
): Promise<boolean> {
  const { signal, onProgress, batchSize } = plan.options;
  const total = plan.document.passages;
  // No embedding model: the passages are written without vectors (searched by words for now).
  if (deps.embedder === null) return signal?.aborted !== true;
  const vectors = await embedInBatches(deps.embedder, built.texts, {
    ...(batchSize !== undefined ? { batchSize } : {}),
    ...(signal !== undefined ? { signal } : {}),
    ...(deps.yieldToHost !== undefined ? { yieldToHost: deps.yieldToHost } : {}),
    onProgress: (done) => onProgress?.({ type: 'embedding', done: offset + done, total }),
  });
  if (vectors === null) return false;
  vectors.forEach((v, k) => {
    const p = built.passages[k];
    if (p !== undefined) p.embedding = v;
  });
  return true;
}

/** A cancel or a parallel import of the same bytes since the first check. */
async function lastCheck(deps: IngestDeps, plan: CommitPlan): Promise<Committed | null> {
  if (plan.options.signal?.aborted) return { type: 'cancelled' };
  const { agentId, contentHash } = plan.document;
  const raced = await deps.store.findDocumentByHash(agentId, contentHash);
  return raced === undefined ? null : { type: 'duplicate', document: raced };
}

/** Default: embed everything, then one change set (ADR 0050). */
async function commitAtOnce(deps: IngestDeps, plan: CommitPlan): Promise<Committed> {
  const built = await buildPassages(deps, plan, 0, plan.document.passages);
  if (built === null) return { type: 'cancelled' };
  const event = importedEvent(deps, plan);
  if (!(await embedBuilt(deps, plan, built, 0))) return { type: 'cancelled' };
  const stop = await lastCheck(deps, plan);
  if (stop !== null) return stop;
  const applied = await deps.store.apply({
    passages: built.passages,
    documents: [plan.document],
    messages: [event],
  });
  return {
    type: 'committed',
    event: applied.messages[0] ?? ({ ...event, seq: 0 } as Message),
    passageIds: built.passages.map((p) => p.id),
    passages: built.passages,
  };
}

/**
 * With `commitEvery`: build, embed and write `size` passages per change set under a document
 * row with status `embedding`, then flip it to `indexed` with the event. A cancel or failure on
 * the way deletes what was written (and a crash leaves a non-`indexed` row that
 * `removeUnfinishedImports` sweeps), so no outcome but `imported` leaves anything behind. Only
 * one batch's passages are held at a time.
 */
async function commitInBatches(
  deps: IngestDeps,
  plan: CommitPlan,
  size: number,
): Promise<Committed> {
  const { store } = deps;
  const total = plan.document.passages;
  const step = Math.max(1, size);
  const passageIds: PassageId[] = [];
  let written = false;
  try {
    for (let from = 0; from < total; from += step) {
      const to = Math.min(total, from + step);
      const built = await buildPassages(deps, plan, from, to);
      if (built === null || !(await embedBuilt(deps, plan, built, from))) {
        return await undo(deps, plan, written);
      }
      if (!written) {
        const stop = await lastCheck(deps, plan);
        if (stop !== null) return stop;
      } else if (plan.options.signal?.aborted) {
        return await undo(deps, plan, written);
      }
      const embedded = deps.embedder === null ? 0 : to;
      const progress: DocumentMeta = { ...plan.document, status: 'embedding', embedded };
      await store.apply({ passages: built.passages, documents: [progress] });
      for (const p of built.passages) passageIds.push(p.id);
      written = true;
      await deps.yieldToHost?.();
    }
    if (plan.options.signal?.aborted) return await undo(deps, plan, written);
    const event = importedEvent(deps, plan);
    const applied = await store.apply({ documents: [plan.document], messages: [event] });
    return {
      type: 'committed',
      event: applied.messages[0] ?? ({ ...event, seq: 0 } as Message),
      passageIds,
    };
  } catch (error) {
    if (written) await undo(deps, plan, written);
    throw error;
  }
}

/** Deletes a partly written import; the outcome is then `cancelled`. */
async function undo(deps: IngestDeps, plan: CommitPlan, written: boolean): Promise<Committed> {
  if (written) await deps.store.deleteDocument(plan.document.id);
  return { type: 'cancelled' };
}

/**
 * The document's title, type and chunks: from the source's own `parseChunked` (the document
 * worker) when it has one and the default measure is asked for, else parsed and chunked here in
 * slices. Null when cancelled.
 */
async function parseAndChunk(
  read: ReadDocument,
  chunkOptions: Partial<ChunkOptions> | undefined,
  onParse: (progress: ParseProgress) => void,
  yieldToHost: (() => Promise<void>) | undefined,
  signal: AbortSignal | undefined,
): Promise<ChunkedDocument | null> {
  if (read.parseChunked !== undefined && chunkOptions?.measure === undefined) {
    const { measure: _defaultMeasure, ...defaults } = DEFAULT_CHUNK_OPTIONS;
    const done = await read.parseChunked({ ...defaults, ...chunkOptions }, onParse, signal);
    return { ...done, title: documentTitle(done.title) };
  }
  const whole = await read.parse(signal);
  if (signal?.aborted) return null;
  const parsed = { ...whole, title: documentTitle(whole.title) };
  const chunks = await collectChunks(parsed, chunkOptions, yieldToHost, signal, onParse);
  if (chunks === null) return null;
  return {
    title: parsed.title,
    mimeType: parsed.mimeType,
    count: chunks.length,
    slice: async (from, to) => chunks.slice(from, to),
    release: () => {},
  };
}

async function collectChunks(
  parsed: Parameters<typeof iterateChunks>[0],
  options: Partial<ChunkOptions> | undefined,
  yieldToHost: (() => Promise<void>) | undefined,
  signal: AbortSignal | undefined,
  onParse: (progress: ParseProgress) => void,
): Promise<DocumentChunk[] | null> {
  const chunks: DocumentChunk[] = [];
  const totalChars = parsed.text.length;
  for (const chunk of iterateChunks(parsed, options)) {
    chunks.push(chunk);
    if (chunks.length % CHUNKS_PER_SLICE === 0) {
      onParse({ doneChars: chunk.end, totalChars });
      await yieldToHost?.();
      if (signal?.aborted) return null;
    }
  }
  onParse({ doneChars: totalChars, totalChars });
  return chunks;
}

function documentSourceOf(
  documentId: DocumentId,
  chunk: DocumentChunk,
  heading: string | undefined,
): Passage['source'] {
  const source: Passage['source'] = {
    type: 'document',
    documentId,
    chunk: chunk.index,
    start: chunk.start,
    end: chunk.end,
  };
  if (chunk.page !== undefined) source.page = chunk.page;
  if (heading !== undefined) source.heading = heading;
  return source;
}
