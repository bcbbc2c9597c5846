import type { EpochMs } from '../units';

/** The constant of reciprocal-rank fusion (Cormack et al. 2009): score = Σ 1 / (k + rank). */
export const RRF_K = 60;

export interface RankedId {
  id: string;
  at: EpochMs;
}

export interface FuseOptions {
  now: EpochMs;
  /** Weight of the recency term; 0 turns it off. */
  recencyWeight: number;
  /** Age at which the recency term has halved. */
  recencyHalfLifeMs: number;
  k?: number;
  /** Weight of each list, in order (default 1 each). */
  weights?: readonly number[];
}

export interface FusedId {
  id: string;
  score: number;
}

/**
 * Reciprocal-rank fusion of ranked lists (best first, ranks from 1) plus a recency term
 * `recencyWeight · 0.5^(age / halfLife)`, so among equally ranked memories the newer wins.
 * Returns every id of any list, best first; ties keep first-seen order.
 */
export function fuseRanks(
  lists: ReadonlyArray<readonly RankedId[]>,
  options: FuseOptions,
): FusedId[] {
  const k = options.k ?? RRF_K;
  const scores = new Map<string, number>();
  const at = new Map<string, EpochMs>();
  lists.forEach((list, listIndex) => {
    const weight = options.weights?.[listIndex] ?? 1;
    list.forEach((item, index) => {
      scores.set(item.id, (scores.get(item.id) ?? 0) + weight / (k + index + 1));
      at.set(item.id, item.at);
    });
  });
  const out: FusedId[] = [];
  for (const [id, score] of scores) {
    const age = Math.max(0, options.now - (at.get(id) ?? options.now));
    const recency = options.recencyWeight * Math.pow(0.5, age / options.recencyHalfLifeMs);
    out.push({ id, score: score + recency });
  }
  return out.sort((a, b) => b.score - a.score);
}
