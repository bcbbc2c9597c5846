import type {
  VectorEntry,
  VectorHit,
  VectorIndex,
  VectorSearchOptions,
} from '../../core/ports/vector-index';
import type { EmbedApi } from '../../rpc/embed-api';
import type { RpcClient } from '../../rpc/rpc-client';

/** The {@link VectorIndex} port over the embed worker's `VectorMatrix` (rule E24). */
export class WorkerVectorIndex implements VectorIndex {
  constructor(private readonly rpc: RpcClient<EmbedApi>) {}

  /**
   * Subscribes to embed-worker crashes: the matrix lived in the worker and is gone, so the caller
   * reloads the agent's vectors (e.g. `MemorySearch.loadAgent`). Returns the unsubscribe.
   */
  onCrash(listener: () => void): () => void {
    return this.rpc.onCrash(() => listener());
  }

  add(entries: VectorEntry[]): Promise<void> {
    return this.rpc.call('vectorAdd', { entries });
  }

  remove(ids: string[]): Promise<void> {
    return this.rpc.call('vectorRemove', { ids });
  }

  search(query: Float32Array, options: VectorSearchOptions): Promise<VectorHit[]> {
    return this.rpc.call('vectorSearch', { query, options });
  }

  searchMany(queries: Float32Array[], options: VectorSearchOptions): Promise<VectorHit[][]> {
    return this.rpc.call('vectorSearchMany', { queries, options });
  }

  size(): Promise<number> {
    return this.rpc.call('vectorSize', null);
  }

  clear(): Promise<void> {
    return this.rpc.call('vectorClear', null);
  }
}
