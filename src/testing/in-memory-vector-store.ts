/**
 * An in-memory {@link VectorStore}: packed batches per agent, a later batch winning for an id,
 * as the Dexie adapter keeps them. `fork()` gives an independent copy (batches are never
 * changed once written, so the copy shares them).
 */
import type { AgentId } from '../core/model';
import type { PackedVectors, VectorStore } from '../core/search/vector-store';

export class InMemoryVectorStore implements VectorStore {
  private readonly batches = new Map<AgentId, PackedVectors[]>();

  putVectors(agentId: AgentId, batch: PackedVectors): Promise<void> {
    const list = this.batches.get(agentId) ?? [];
    list.push({ ...batch, ids: [...batch.ids], data: batch.data.slice() });
    this.batches.set(agentId, list);
    return Promise.resolve();
  }

  loadVectors(agentId: AgentId, modelId?: string): Promise<PackedVectors[]> {
    const list = this.batches.get(agentId) ?? [];
    return Promise.resolve(list.filter((b) => modelId === undefined || b.modelId === modelId));
  }

  fork(): InMemoryVectorStore {
    const copy = new InMemoryVectorStore();
    for (const [agentId, list] of this.batches) copy.batches.set(agentId, [...list]);
    return copy;
  }
}
