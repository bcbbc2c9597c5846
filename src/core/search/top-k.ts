/**
 * Keeps the `k` best (highest-scoring) items seen so far — a partial selection, so a scan of n
 * scores costs O(n) comparisons against the current k-th best instead of a full sort.
 */
export class TopK {
  readonly k: number;
  readonly scores: Float64Array;
  readonly items: Int32Array;
  private count = 0;

  constructor(k: number) {
    this.k = Math.max(0, Math.floor(k));
    this.scores = new Float64Array(this.k);
    this.items = new Int32Array(this.k);
  }

  /** The score an item must beat to enter (−∞ until k items are held). */
  get threshold(): number {
    return this.count < this.k ? -Infinity : this.scores[this.k - 1]!;
  }

  get size(): number {
    return this.count;
  }

  /** Offers `item` with `score`; kept sorted best first by insertion (k is small). */
  push(item: number, score: number): void {
    if (this.k === 0) return;
    if (this.count === this.k && score <= this.scores[this.k - 1]!) return;
    let i = this.count < this.k ? this.count++ : this.k - 1;
    while (i > 0 && this.scores[i - 1]! < score) {
      this.scores[i] = this.scores[i - 1]!;
      this.items[i] = this.items[i - 1]!;
      i -= 1;
    }
    this.scores[i] = score;
    this.items[i] = item;
  }
}
