import { AppError } from '../errors';
import type { AgentId, DocumentId, DocumentMeta, Message, Passage, PassageId } from '../model';
import type { Clock, IdSource } from '../ports/clock';
import type { Embedder } from '../ports/embedder';
import type { MemorySearch } from '../ports/memory-search';
import type { MemoryStore, NewMessage } from '../ports/memory-store';
import type { Tokenizer } from '../ports/tokenizer';
import { estimateTokens } from '../tokens/estimate-tokenizer';
import { iterateChunks, type ChunkOptions, type DocumentChunk } from './chunk';
import { documentImportedText } from './document-imported-event';
import type { DocumentSource } from './document-source';
import { embedInBatches } from './embed-in-batches';
import { joinHeadingPath, passageEmbeddingText } from './passage-embedding-text';

/** The ports an import needs. */
export interface IngestDeps {
  store: MemoryStore;
  search: MemorySearch;
  embedder: Embedder;
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

/** Progress of one document, in stage order: read → chunked → embedded x/N → indexed. */
export type IngestProgress =
  | { type: 'reading'; loadedBytes: number; totalBytes: number }
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
}

/** Chunks produced between two `yieldToHost` calls while chunking. */
const CHUNKS_PER_SLICE = 32;
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
 * outcome is `imported`. Faults — unreadable file, embedder failure, storage errors — reject with
 * an `AppError` (`document_parse_failed`, `embedder_failed`, `storage_*`). If indexing fails after
 * the commit, the document is stored and `MemorySearch.loadAgent` indexes it on the next load.
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

    const parsed = await read.parse(signal);
    if (aborted()) return { type: 'cancelled' };
    const chunks = await collectChunks(parsed, options.chunk, deps.yieldToHost, aborted);
    if (chunks === null) return { type: 'cancelled' };
    if (chunks.length === 0) {
      throw new AppError('document_parse_failed', `“${parsed.title}” contains no text to import.`);
    }
    onProgress?.({ type: 'chunked', passages: chunks.length });

    const headings = chunks.map((c) => joinHeadingPath(c.headingPath));
    const vectors = await embedInBatches(
      embedder,
      chunks.map((c, k) => passageEmbeddingText(parsed.title, headings[k], c.text)),
      {
        ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}),
        ...(signal !== undefined ? { signal } : {}),
        ...(deps.yieldToHost !== undefined ? { yieldToHost: deps.yieldToHost } : {}),
        onProgress: (done, total) => onProgress?.({ type: 'embedding', done, total }),
      },
    );
    if (vectors === null) return { type: 'cancelled' };

    const at = clock.now();
    const documentId = ids.next('doc');
    const passages: Passage[] = chunks.map((c, k) => ({
      id: ids.next('psg'),
      agentId,
      text: c.text,
      source: documentSourceOf(documentId, c, headings[k]),
      tags: [],
      at,
      embedding: vectors[k] ?? null,
      embeddingModel: embedder.modelId,
      dimension: embedder.dimension,
    }));
    const document: DocumentMeta = {
      id: documentId,
      agentId,
      title: parsed.title,
      mimeType: parsed.mimeType,
      bytes: source.bytes,
      contentHash: read.contentHash,
      status: 'indexed',
      passages: passages.length,
      embedded: passages.length,
      at,
    };
    const text = documentImportedText(parsed.title, passages.length);
    const event: NewMessage = {
      id: ids.next('msg'),
      agentId,
      role: 'event',
      text,
      at,
      inContext: true,
      tokens: deps.tokenizer?.countMessage('event', text) ?? estimateTokens(text),
    };

    // Last chance: a cancel or a parallel import of the same bytes since the first check.
    if (aborted()) return { type: 'cancelled' };
    const raced = await store.findDocumentByHash(agentId, read.contentHash);
    if (raced !== undefined) return { type: 'duplicate', document: raced };
    const applied = await store.apply({ passages, documents: [document], messages: [event] });

    for (let k = 0; k < passages.length; k += INDEX_BATCH) {
      await deps.search.indexPassages(passages.slice(k, k + INDEX_BATCH));
      await deps.yieldToHost?.();
    }
    onProgress?.({ type: 'indexed', documentId, passages: passages.length });
    const written = applied.messages[0] ?? ({ ...event, seq: 0 } as Message);
    return { type: 'imported', document, passageIds: passages.map((p) => p.id), event: written };
  } catch (error) {
    if (error instanceof AppError && error.code === 'cancelled') return { type: 'cancelled' };
    throw AppError.from(error);
  }
}

async function collectChunks(
  parsed: Parameters<typeof iterateChunks>[0],
  options: Partial<ChunkOptions> | undefined,
  yieldToHost: (() => Promise<void>) | undefined,
  aborted: () => boolean,
): Promise<DocumentChunk[] | null> {
  const chunks: DocumentChunk[] = [];
  for (const chunk of iterateChunks(parsed, options)) {
    chunks.push(chunk);
    if (chunks.length % CHUNKS_PER_SLICE === 0) {
      await yieldToHost?.();
      if (aborted()) return null;
    }
  }
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
