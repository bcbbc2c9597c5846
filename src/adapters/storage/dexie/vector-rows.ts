/** Packed message vectors of the Dexie store: how a new batch joins the stored rows. */
import type { AgentId } from '../../../core/model';
import type { PackedVectors } from '../../../core/search/vector-store';
import type { LociDb } from './loci-db';

/** Small vector batches are appended to the last row while it holds at most this many. */
export const VECTOR_TAIL_ROW_MAX = 256;

/**
 * Stores a batch inside a transaction over `vectors`. One turn embeds one or two messages:
 * they join the agent's last small row instead of adding a row each, or 10⁵ messages would
 * again load as ~10⁵ rows.
 */
export async function appendVectors(
  db: LociDb,
  agentId: AgentId,
  batch: PackedVectors,
): Promise<void> {
  const last = await db.vectors.where('[agentId+modelId]').equals([agentId, batch.modelId]).last();
  if (
    last?.rowId !== undefined &&
    last.kind === batch.kind &&
    last.dimension === batch.dimension &&
    last.ids.length + batch.ids.length <= VECTOR_TAIL_ROW_MAX
  ) {
    const data = new Float32Array(last.data.length + batch.data.length);
    data.set(last.data);
    data.set(batch.data, last.data.length);
    await db.vectors.put({ ...last, ids: [...last.ids, ...batch.ids], data });
  } else {
    await db.vectors.add({ agentId, ...batch });
  }
}
