import type { AgentId } from '../model';
import type { VectorKind } from '../ports/vector-index';

/**
 * A batch of vectors of one kind, packed row-major into one `Float32Array`
 * (`data.length === ids.length * dimension`), tagged with the model that made them.
 */
export interface PackedVectors {
  kind: VectorKind;
  modelId: string;
  dimension: number;
  ids: string[];
  data: Float32Array;
}

/**
 * Persistence of embeddings that do not live on their own record (recall messages; passages
 * carry theirs in `Passage.embedding`). The Dexie adapter implements it with packed rows, which
 * load ~10× faster than one row per vector at 10⁵. A later batch wins over an earlier one for
 * the same id.
 */
export interface VectorStore {
  putVectors(agentId: AgentId, batch: PackedVectors): Promise<void>;
  /** Every stored batch of the agent, oldest first; only batches of `modelId` when given. */
  loadVectors(agentId: AgentId, modelId?: string): Promise<PackedVectors[]>;
}
