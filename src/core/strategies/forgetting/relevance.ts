/**
 * The relevance value R of seed 001: how related each memory is to the current dialogue.
 *
 *   R(P, Mₓ, S, A) = sigmoid(r),
 *   r = Σ over gram lengths ℓ = 1…A, Σ over every position of an ℓ-gram p̂ of P:
 *         [p̂ ∈ Mₓ] · ( m / c(p̂)^(A − ℓ + 1) − 1 )
 *
 * where m is the length of Mₓ in units, c(p̂) the number of memories in S that contain p̂, and A
 * the longest gram. This is the seed's second formula with its index a = ℓ − 1 run from 0
 * instead of 1, so single units count too but with the steepest rarity penalty — the seed
 * asks to "lower the weight of shared single characters", not to drop them — and for A = 1 it
 * is exactly the seed's first formula. See docs/forgetting-curve.md for the worked example.
 */
import { segmentUnits } from './segment-units';

/** R and the raw sum r of one memory. */
export interface RelevanceScore {
  /** The raw sum r; 0 when the memory shares nothing with the dialogue. */
  r: number;
  /** sigmoid(r) ∈ (0, 1); 0.5 when the memory shares nothing with the dialogue. */
  relevance: number;
}

/** The logistic function, written so that large |x| neither overflows nor loses the sign. */
export function sigmoid(x: number): number {
  if (x >= 0) return 1 / (1 + Math.exp(-x));
  const e = Math.exp(x);
  return e / (1 + e);
}

const GRAM_JOINER = ' ';

/** Every gram of length 1…maxGram of each segment, once per position (repeats kept). */
function gramsByPosition(
  segments: string[][],
  maxGram: number,
): Array<{ key: string; length: number }> {
  const grams: Array<{ key: string; length: number }> = [];
  for (const units of segments) {
    for (let length = 1; length <= maxGram; length += 1) {
      for (let start = 0; start + length <= units.length; start += 1) {
        grams.push({ key: units.slice(start, start + length).join(GRAM_JOINER), length });
      }
    }
  }
  return grams;
}

/** The distinct grams of a memory, and its length m in units. */
interface GramSet {
  grams: Set<string>;
  units: number;
}

// Memoized by (A, text): a memory's text never changes, and segmenting every memory again each
// round costs ~0.3 ms per memory (measured at 1000 memories). Bounded; the oldest entry goes.
const GRAM_CACHE_ENTRIES = 20_000;
const gramCache = new Map<string, GramSet>();

function gramSet(text: string, maxGram: number): GramSet {
  const key = `${maxGram}\u0000${text}`;
  const cached = gramCache.get(key);
  if (cached !== undefined) return cached;
  const segments = segmentUnits(text);
  const grams = new Set(gramsByPosition(segments, maxGram).map((gram) => gram.key));
  const units = segments.reduce((sum, segment) => sum + segment.length, 0);
  const set = { grams, units };
  if (gramCache.size >= GRAM_CACHE_ENTRIES) {
    const oldest = gramCache.keys().next().value;
    if (oldest !== undefined) gramCache.delete(oldest);
  }
  gramCache.set(key, set);
  return set;
}

/**
 * Scores every memory of `memories` (the seed's S, all memories) against `dialogue` (P).
 * Returns one score per memory, in the same order. `maxGram` below 1 is treated as 1.
 */
export function relevanceScores(
  dialogue: string,
  memories: readonly string[],
  maxGram: number,
): RelevanceScore[] {
  const A = Math.max(1, Math.floor(maxGram));
  const sets = memories.map((text) => gramSet(text, A));
  // Distinct grams of P with how many positions each occupies (the seed sums over positions).
  const distinct = new Map<string, { length: number; positions: number }>();
  for (const { key, length } of gramsByPosition(segmentUnits(dialogue), A)) {
    const seen = distinct.get(key);
    if (seen === undefined) distinct.set(key, { length, positions: 1 });
    else seen.positions += 1;
  }
  const grams = [...distinct.values()];
  const keys = [...distinct.keys()];
  // One membership pass: which grams of P each memory holds, and c(p̂) for each gram.
  const containing = new Array<number>(keys.length).fill(0);
  const held = sets.map((set) => {
    const mine: number[] = [];
    keys.forEach((key, k) => {
      if (set.grams.has(key)) {
        mine.push(k);
        containing[k] = (containing[k] ?? 0) + 1;
      }
    });
    return mine;
  });
  return sets.map((set, j) => {
    let r = 0;
    for (const k of held[j] ?? []) {
      const gram = grams[k];
      // c ≥ 1 here: this memory is one of the memories containing the gram.
      const c = containing[k] ?? 1;
      if (gram !== undefined) r += gram.positions * (set.units / c ** (A - gram.length + 1) - 1);
    }
    return { r, relevance: sigmoid(r) };
  });
}
