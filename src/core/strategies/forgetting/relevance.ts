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

/** Distinct grams of the dialogue P, in first-seen order, with their positions. */
function dialogueGrams(
  dialogue: string,
  A: number,
): Map<string, { length: number; positions: number }> {
  const distinct = new Map<string, { length: number; positions: number }>();
  for (const { key, length } of gramsByPosition(segmentUnits(dialogue), A)) {
    const seen = distinct.get(key);
    if (seen === undefined) distinct.set(key, { length, positions: 1 });
    else seen.positions += 1;
  }
  return distinct;
}

/**
 * Today's scoring before issue 20 (kept as the reference and the bench baseline): every memory
 * tests every distinct gram of P, O(memories × grams) per round.
 */
export function relevanceScoresFull(
  dialogue: string,
  memories: readonly string[],
  maxGram: number,
): RelevanceScore[] {
  const A = Math.max(1, Math.floor(maxGram));
  const sets = memories.map((text) => gramSet(text, A));
  const distinct = dialogueGrams(dialogue, A);
  const grams = [...distinct.values()];
  const keys = [...distinct.keys()];
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
      const c = containing[k] ?? 1;
      if (gram !== undefined) r += gram.positions * (set.units / c ** (A - gram.length + 1) - 1);
    }
    return { r, relevance: sigmoid(r) };
  });
}

/**
 * An inverted index gram → memory texts holding it (with how many memories have that text),
 * kept between rounds and updated by difference (X175): a round adds the grams of its new
 * memories and drops those of memories gone, then visits only the memories that hold a gram of
 * P. c(p̂) is the posting's count, so the scores equal {@link relevanceScoresFull}'s exactly
 * (each memory's sum is taken over P's grams in the same order).
 */
export class RelevanceIndex {
  /** Each distinct memory text has a slot: its multiplicity and length m in units. */
  private readonly slots = new Map<string, number>();
  private counts: number[] = [];
  private units: number[] = [];
  private readonly free: number[] = [];
  /** gram → the slots holding it, and c(p̂): how many memories (with multiplicity) hold it. */
  private readonly postings = new Map<string, { slots: Set<number>; c: number }>();

  constructor(private readonly A: number) {}

  /** Brings the index to the multiset `memories`. */
  sync(memories: readonly string[]): void {
    const next = new Map<string, number>();
    for (const text of memories) next.set(text, (next.get(text) ?? 0) + 1);
    for (const [text, slot] of this.slots) {
      const want = next.get(text) ?? 0;
      const have = this.counts[slot] ?? 0;
      if (want !== have) this.move(text, slot, want - have);
    }
    for (const [text, n] of next) if (!this.slots.has(text)) this.add(text, n);
  }

  private add(text: string, n: number): void {
    const slot = this.free.pop() ?? this.counts.length;
    this.slots.set(text, slot);
    this.counts[slot] = 0;
    this.units[slot] = gramSet(text, this.A).units;
    this.move(text, slot, n);
  }

  private move(text: string, slot: number, delta: number): void {
    const now = (this.counts[slot] ?? 0) + delta;
    this.counts[slot] = now;
    for (const gram of gramSet(text, this.A).grams) {
      let posting = this.postings.get(gram);
      if (posting === undefined) {
        posting = { slots: new Set(), c: 0 };
        this.postings.set(gram, posting);
      }
      posting.c += delta;
      if (now > 0) posting.slots.add(slot);
      else posting.slots.delete(slot);
      if (posting.slots.size === 0) this.postings.delete(gram);
    }
    if (now <= 0) {
      this.slots.delete(text);
      this.free.push(slot);
    }
  }

  /** The scores of `memories` (which must be what was last synced) against `dialogue`. */
  scores(dialogue: string, memories: readonly string[]): RelevanceScore[] {
    const A = this.A;
    const r = new Float64Array(this.counts.length);
    for (const [key, gram] of dialogueGrams(dialogue, A)) {
      const posting = this.postings.get(key);
      if (posting === undefined) continue;
      const power = posting.c ** (A - gram.length + 1);
      for (const slot of posting.slots)
        r[slot] = (r[slot] ?? 0) + gram.positions * ((this.units[slot] ?? 0) / power - 1);
    }
    return memories.map((text) => {
      const slot = this.slots.get(text);
      const sum = slot === undefined ? 0 : (r[slot] ?? 0);
      return { r: sum, relevance: sigmoid(sum) };
    });
  }
}

// One index per gram length, shared by the rounds of a page; each round syncs it by difference.
const indexes = new Map<number, RelevanceIndex>();

/**
 * Scores every memory of `memories` (the seed's S, all memories) against `dialogue` (P).
 * Returns one score per memory, in the same order. `maxGram` below 1 is treated as 1.
 * Incremental (X175): the gram index is kept between calls and updated by difference.
 */
export function relevanceScores(
  dialogue: string,
  memories: readonly string[],
  maxGram: number,
): RelevanceScore[] {
  const A = Math.max(1, Math.floor(maxGram));
  let index = indexes.get(A);
  if (index === undefined) {
    index = new RelevanceIndex(A);
    indexes.set(A, index);
  }
  index.sync(memories);
  return index.scores(dialogue, memories);
}
