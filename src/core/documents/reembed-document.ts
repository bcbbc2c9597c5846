import { AppError } from '../errors';
import type { AgentId, DocumentId, DocumentMeta, Passage } from '../model';
import type { Embedder } from '../ports/embedder';
import type { MemorySearch } from '../ports/memory-search';
import type { MemoryStore } from '../ports/memory-store';
import { embedInBatches } from './embed-in-batches';
import { passageEmbeddingText } from './passage-embedding-text';

/** The ports a re-embed needs; `embedder` is the new model. */
export interface ReembedDeps {
  store: MemoryStore;
  search: MemorySearch;
  embedder: Embedder;
  yieldToHost?: () => Promise<void>;
}

/** How a re-embed ended: all passages rewritten, or cancelled with the old vectors kept. */
export type ReembedOutcome = { type: 'reembedded'; passages: number } | { type: 'cancelled' };

/**
 * Re-embeds every passage of a document with the current embedder (after the user switches
 * embedding model): vectors are computed in batches with `done/total` progress, then written in
 * one change set (so a cancel or crash keeps the old vectors, all of them), then the passages are
 * re-indexed. Rejects with `not_found` for an unknown document.
 */
export async function reembedDocument(
  deps: ReembedDeps,
  documentId: DocumentId,
  options: {
    signal?: AbortSignal;
    onProgress?: (done: number, total: number) => void;
    batchSize?: number;
  } = {},
): Promise<ReembedOutcome> {
  const { store, embedder } = deps;
  const document = await store.getDocument(documentId);
  if (document === undefined) {
    throw new AppError('not_found', `No document with id "${documentId}".`);
  }
  const passages = (await store.queryPassages(document.agentId, { documentId })).sort(
    (a, b) => chunkOf(a) - chunkOf(b),
  );
  const vectors = await embedInBatches(
    embedder,
    passages.map((p) => passageEmbeddingText(document.title, headingOf(p), p.text)),
    {
      ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}),
      ...(options.signal !== undefined ? { signal: options.signal } : {}),
      ...(options.onProgress !== undefined ? { onProgress: options.onProgress } : {}),
      ...(deps.yieldToHost !== undefined ? { yieldToHost: deps.yieldToHost } : {}),
    },
  );
  if (vectors === null) return { type: 'cancelled' };
  const updated: Passage[] = passages.map((p, k) => ({
    ...p,
    embedding: vectors[k] ?? null,
    embeddingModel: embedder.modelId,
    dimension: embedder.dimension,
  }));
  const meta: DocumentMeta = { ...document, status: 'indexed', embedded: updated.length };
  await store.apply({ passages: updated, documents: [meta] });
  const ids = updated.map((p) => p.id);
  await deps.search.removePassages(document.agentId, ids);
  await deps.search.indexPassages(updated);
  return { type: 'reembedded', passages: updated.length };
}

/**
 * The agent's documents whose vectors were not made by `embedder` (another model or dimension),
 * i.e. the ones {@link reembedDocument} should process after a model change. A document is
 * re-embedded in one change set, so its first passage speaks for all of them.
 */
export async function documentsToReembed(
  store: MemoryStore,
  agentId: AgentId,
  embedder: Pick<Embedder, 'modelId' | 'dimension'>,
): Promise<DocumentMeta[]> {
  const stale: DocumentMeta[] = [];
  for (const document of await store.listDocuments(agentId)) {
    const [first] = await store.queryPassages(agentId, { documentId: document.id, limit: 1 });
    if (
      first !== undefined &&
      (first.embeddingModel !== embedder.modelId || first.dimension !== embedder.dimension)
    ) {
      stale.push(document);
    }
  }
  return stale;
}

function chunkOf(p: Passage): number {
  return p.source.type === 'document' ? p.source.chunk : 0;
}

function headingOf(p: Passage): string | undefined {
  return p.source.type === 'document' ? p.source.heading : undefined;
}
