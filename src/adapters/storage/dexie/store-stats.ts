/**
 * What the storage dashboard shows per tier (U-rules of the storage view): row counts and bytes
 * estimated from a sample, and the packed vector batches' size. Read inside the store's `read`
 * wrapper, so a failure becomes the store's storage error.
 */
import type { AgentId } from '../../../core/model';
import { TIER_NAMES, type TierName, type TierStats } from '../../../core/ports/memory-store';
import { approxBytes } from './approx-bytes';
import type { LociDb } from './loci-db';

/** Rows sampled per tier by `stats()` to estimate bytes (bytes ≈ mean sample size × rows). */
const STATS_SAMPLE_ROWS = 200;

/** Rows and estimated bytes of each tier, of one agent or of the whole store. */
export async function readTierStats(
  db: LociDb,
  agentId?: AgentId,
): Promise<Record<TierName, TierStats>> {
  const out = {} as Record<TierName, TierStats>;
  for (const tier of TIER_NAMES) {
    const table = db.table(tier);
    const c =
      agentId === undefined
        ? table.toCollection()
        : tier === 'agents'
          ? table.where('id').equals(agentId)
          : table.where('agentId').equals(agentId);
    const rows = await c.count();
    // The sample is read one row per IndexedDB event: the memory panel shows these stats
    // live, and 200 message rows of megabytes decoded in one result blocked the page (X189).
    let sampled = 0;
    let sampleBytes = 0;
    if (rows > 0) {
      await c
        .clone()
        .limit(STATS_SAMPLE_ROWS)
        .each((r: unknown) => {
          sampled += 1;
          sampleBytes += approxBytes(r);
        });
    }
    const bytes = sampled === 0 ? 0 : Math.round((sampleBytes / sampled) * rows);
    out[tier] = { rows, bytes };
  }
  return out;
}

/** Rows, approximate bytes and vector count of the packed vector batches. */
export async function readVectorStats(
  db: LociDb,
  agentId?: AgentId,
): Promise<TierStats & { vectors: number }> {
  const c =
    agentId === undefined ? db.vectors.toCollection() : db.vectors.where('agentId').equals(agentId);
  let rows = 0;
  let bytes = 0;
  let vectors = 0;
  await c.each((r) => {
    rows += 1;
    vectors += r.ids.length;
    bytes += r.data.byteLength + approxBytes(r.ids);
  });
  return { rows, bytes, vectors };
}
