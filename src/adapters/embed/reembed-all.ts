import type { AgentId, Passage } from '../../core/model';
import type { Embedder } from '../../core/ports/embedder';
import type { MemoryStore } from '../../core/ports/memory-store';
import type { VectorIndex } from '../../core/ports/vector-index';

export interface ReembedProgress {
  type: 'reembedding';
  done: number;
  total: number;
}

export interface ReembedOptions {
  store: Pick<MemoryStore, 'countPassages' | 'queryPassages' | 'apply'>;
  embedder: Embedder;
  agentId: AgentId;
  /** When given, the worker's matrix is updated as batches land. */
  vectorIndex?: VectorIndex;
  /** Passages per batch (one embed call and one transaction each). Default 32. */
  batchSize?: number;
  signal?: AbortSignal;
  onProgress?: (p: ReembedProgress) => void;
}

/**
 * Re-embeds an agent's archival passages with a new embedding model, in the background
 * (rule E25). Each batch is embedded, then written in its own transaction with the new
 * `embeddingModel` and `dimension`; passages that already carry the new model are skipped, so an
 * interrupted run resumes where it stopped. Returns how many passages were re-embedded; an
 * aborted signal stops between batches with what is done kept.
 */
export async function reembedAll(
  options: ReembedOptions,
): Promise<{ reembedded: number; stopped: boolean }> {
  const { store, embedder, agentId, vectorIndex, signal, onProgress } = options;
  const batchSize = options.batchSize ?? 32;
  const total = await store.countPassages(agentId);
  let done = 0;
  let reembedded = 0;
  onProgress?.({ type: 'reembedding', done, total });
  for (let offset = 0; offset < total; offset += batchSize) {
    if (signal?.aborted) return { reembedded, stopped: true };
    const page = await store.queryPassages(agentId, { offset, limit: batchSize });
    const stale = page.filter(
      (p) =>
        p.embeddingModel !== embedder.modelId || p.dimension !== embedder.dimension || !p.embedding,
    );
    if (stale.length > 0) {
      const vectors = await embedder.embedPassages(stale.map((p) => p.text));
      const updated: Passage[] = stale.map((p, i) => ({
        ...p,
        embedding: vectors[i] ?? null,
        embeddingModel: embedder.modelId,
        dimension: embedder.dimension,
      }));
      await store.apply({ passages: updated });
      if (vectorIndex) {
        await vectorIndex.remove(updated.map((p) => p.id));
        await vectorIndex.add(
          updated.flatMap((p) =>
            p.embedding ? [{ id: p.id, kind: 'passage' as const, vector: p.embedding }] : [],
          ),
        );
      }
      reembedded += updated.length;
    }
    done = Math.min(total, offset + page.length);
    onProgress?.({ type: 'reembedding', done, total });
    if (page.length === 0) break;
  }
  return { reembedded, stopped: false };
}
