/**
 * Where a question's evidence turns sit in a ranked result list: the rank of the first one
 * (what "found at k" needs, V5) and the rank by which all of them have appeared (the stricter
 * "all evidence" figure, V6). Ranks are 1-based; `null` means never (not in the list).
 */
export interface EvidenceRanks {
  first: number | null;
  all: number | null;
}

/** Ranks of `evidence` (turn ids) in `ranked` (turn ids, best first). Empty evidence → never. */
export function evidenceRanks(
  ranked: readonly string[],
  evidence: readonly string[],
): EvidenceRanks {
  const wanted = new Set(evidence);
  if (wanted.size === 0) return { first: null, all: null };
  let first: number | null = null;
  for (let i = 0; i < ranked.length; i += 1) {
    const id = ranked[i] as string;
    if (!wanted.has(id)) continue;
    first ??= i + 1;
    wanted.delete(id);
    if (wanted.size === 0) return { first, all: i + 1 };
  }
  return { first, all: null };
}

/** Whether the evidence counts as found within the top `k` (V5 any, V6 all). */
export function foundWithin(ranks: EvidenceRanks, k: number, rule: 'any' | 'all'): boolean {
  const rank = rule === 'any' ? ranks.first : ranks.all;
  return rank !== null && rank <= k;
}
