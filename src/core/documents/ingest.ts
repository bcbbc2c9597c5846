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
 * dedupe → parse → chunk → embed in batches (with x/N progress) → one `MemoryStore.apply` that
 * writes the passages with their vectors, the document (status `indexed`) and the "document
 * imported" event message together → `MemorySearch.indexPassages`.
 *
 * Because everything is written in that one change set, a cancel (via `signal`), a crash or a
 * failure before it leaves nothing behind (ADR 0050); a cancel after it is too late and the
 * outcome is `imported`. With `commitEvery` the passages are written in batches instead, and a
 * cancel or failure deletes what was written (spec D39). Faults — unreadable file, embedder
 * failure, storage errors — reject with an `AppError` (`document_parse_failed`,
 * `embedder_failed`, `storage_*`). If indexing fails after the commit, the document is stored
 * and `MemorySearch.loadAgent` indexes it on the next load.
 */
export async function ingestDocument(
  deps: IngestDeps,
  agentId: AgentId,
  source: DocumentSource,
  options: IngestOptions = {},
): Promise<IngestOutcome> {
  const { store, embedder, clock, ids } = deps;
  const { signal, onProgress } = options;
  const aborted = (): boolean => signal?.aborted === true;
  try {
    onProgress?.({ type: 'reading', loadedBytes: 0, totalBytes: source.bytes });
    const read = await source.read(
      (loadedBytes) => onProgress?.({ type: 'reading', loadedBytes, totalBytes: source.bytes }),
      signal,
    );
    if (aborted()) return { type: 'cancelled' };
    const existing = await store.findDocumentByHash(agentId, read.contentHash);
    if (existing !== undefined) return { type: 'duplicate', document: existing };

    const onParse = (p: ParseProgress): void => onProgress?.({ type: 'parsing', ...p });
    const prepared = await parseAndChunk(read, options.chunk, onParse, deps.yieldToHost, signal);
    if (prepared === null || aborted()) return { type: 'cancelled' };
    const { title, mimeType, chunks } = prepared;
    if (chunks.length === 0) {
      throw new AppError('document_parse_failed', `“${title}” contains no text to import.`);
    }
    onProgress?.({ type: 'chunked', passages: chunks.length });

    const at = clock.now();
    const documentId = ids.next('doc');
    const texts: string[] = [];
    const passages: Passage[] = [];
    // In slices: a one-line 50 MB file is ~75,000 passages (X177).
    for (const [k, c] of chunks.entries()) {
      const heading = joinHeadingPath(c.headingPath);
      texts.push(passageEmbeddingText(title, heading, c.text));
      passages.push({
        id: ids.next('psg'),
        agentId,
        text: c.text,
        source: documentSourceOf(documentId, c, heading),
        tags: [],
        at,
        embedding: null,
        embeddingModel: embedder?.modelId ?? null,
        dimension: embedder?.dimension ?? 0,
      });
      if ((k + 1) % PASSAGES_PER_SLICE === 0) {
        await deps.yieldToHost?.();
        if (aborted()) return { type: 'cancelled' };
      }
    }
    const document: DocumentMeta = {
      id: documentId,
      agentId,
      title,
      mimeType,
      bytes: source.bytes,
      contentHash: read.contentHash,
      status: 'indexed',
      passages: passages.length,
      embedded: embedder === null ? 0 : passages.length,
      at,
    };
    const text = documentImportedText(title, passages.length);
    const event: NewMessage = {
      id: ids.next('msg'),
      agentId,
      ...(options.conversationId !== undefined ? { conversationId: options.conversationId } : {}),
      role: 'event',
      text,
      at,
      inContext: true,
      tokens: deps.tokenizer?.countMessage('event', text) ?? estimateTokens(text),
    };
    const plan: CommitPlan = { passages, texts, document, event, options };
    const committed =
      options.commitEvery !== undefined && options.commitEvery < passages.length
        ? await commitInBatches(deps, plan, options.commitEvery)
        : await commitAtOnce(deps, plan);
    if (committed.type !== 'committed') return committed;

    for (let k = 0; k < passages.length; k += INDEX_BATCH) {
      await deps.search.indexPassages(passages.slice(k, k + INDEX_BATCH));
      await deps.yieldToHost?.();
    }
    onProgress?.({ type: 'indexed', documentId, passages: passages.length });
    return {
      type: 'imported',
      document,
      passageIds: passages.map((p) => p.id),
      event: committed.event,
    };
  } catch (error) {
    if (error instanceof AppError && error.code === 'cancelled') return { type: 'cancelled' };
    throw AppError.from(error);
  }
}

interface CommitPlan {
  /** Passages without vectors yet, in chunk order. */
  passages: Passage[];
  /** What to embed for each passage. */
  texts: string[];
  /** The finished document row (`indexed`). */
  document: DocumentMeta;
  event: NewMessage;
  options: IngestOptions;
}

type Committed =
  | { type: 'committed'; event: Message }
  | Extract<IngestOutcome, { type: 'cancelled' | 'duplicate' }>;

/** Embeds `[from, to)` of the plan's passages in place; false when cancelled. */
async function embedRange(
  deps: IngestDeps,
  plan: CommitPlan,
  from: number,
  to: number,
): Promise<boolean> {
  const { signal, onProgress, batchSize } = plan.options;
  const total = plan.passages.length;
  // No embedding model: the passages are written without vectors (searched by words for now).
  if (deps.embedder === null) return signal?.aborted !== true;
  const vectors = await embedInBatches(deps.embedder, plan.texts.slice(from, to), {
    ...(batchSize !== undefined ? { batchSize } : {}),
    ...(signal !== undefined ? { signal } : {}),
    ...(deps.yieldToHost !== undefined ? { yieldToHost: deps.yieldToHost } : {}),
    onProgress: (done) => onProgress?.({ type: 'embedding', done: from + done, total }),
  });
  if (vectors === null) return false;
  vectors.forEach((v, k) => {
    const p = plan.passages[from + k];
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
  if (!(await embedRange(deps, plan, 0, plan.passages.length))) return { type: 'cancelled' };
  const stop = await lastCheck(deps, plan);
  if (stop !== null) return stop;
  const applied = await deps.store.apply({
    passages: plan.passages,
    documents: [plan.document],
    messages: [plan.event],
  });
  return {
    type: 'committed',
    event: applied.messages[0] ?? ({ ...plan.event, seq: 0 } as Message),
  };
}

/**
 * With `commitEvery`: embed and write `size` passages per change set under a document row with
 * status `embedding`, then flip it to `indexed` with the event. A cancel or failure on the way
 * deletes what was written (and a crash leaves a non-`indexed` row that
 * `removeUnfinishedImports` sweeps), so no outcome but `imported` leaves anything behind.
 */
async function commitInBatches(
  deps: IngestDeps,
  plan: CommitPlan,
  size: number,
): Promise<Committed> {
  const { store } = deps;
  const total = plan.passages.length;
  const step = Math.max(1, size);
  let written = false;
  try {
    for (let from = 0; from < total; from += step) {
      const to = Math.min(total, from + step);
      if (!(await embedRange(deps, plan, from, to))) return await undo(deps, plan, written);
      if (!written) {
        const stop = await lastCheck(deps, plan);
        if (stop !== null) return stop;
      } else if (plan.options.signal?.aborted) {
        return await undo(deps, plan, written);
      }
      const embedded = deps.embedder === null ? 0 : to;
      const progress: DocumentMeta = { ...plan.document, status: 'embedding', embedded };
      await store.apply({ passages: plan.passages.slice(from, to), documents: [progress] });
      written = true;
      await deps.yieldToHost?.();
    }
    if (plan.options.signal?.aborted) return await undo(deps, plan, written);
    const applied = await store.apply({ documents: [plan.document], messages: [plan.event] });
    return {
      type: 'committed',
      event: applied.messages[0] ?? ({ ...plan.event, seq: 0 } as Message),
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
  return chunks === null ? null : { title: parsed.title, mimeType: parsed.mimeType, chunks };
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
