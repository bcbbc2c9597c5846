/**
 * Keeps the `k` best documents of a scoring pass in a binary heap whose root is the worst kept
 * one, so n offers cost O(n log k). "Better" is a higher score; equal scores go to the document
 * whose first matching query term comes earlier, then to the older document (lower number) —
 * the order MiniSearch returned ties in, which the eval figures were measured with.
 */
export class HitHeap {
  private readonly nums: Int32Array;
  private readonly scores: Float64Array;
  private size = 0;

  /** @param first each document's first matching query term (by document number) */
  constructor(
    readonly k: number,
    private readonly first: Uint16Array,
  ) {
    this.nums = new Int32Array(Math.max(0, k));
    this.scores = new Float64Array(Math.max(0, k));
  }

  /** Whether (a, sa) ranks above (b, sb). */
  private better(a: number, sa: number, b: number, sb: number): boolean {
    if (sa !== sb) return sa > sb;
    const fa = this.first[a]!;
    const fb = this.first[b]!;
    return fa !== fb ? fa < fb : a < b;
  }

  offer(num: number, score: number): void {
    if (this.k <= 0) return;
    const { nums, scores } = this;
    if (this.size < this.k) {
      let i = this.size;
      this.size += 1;
      // Sift up: the worst kept document rises to the root.
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.better(nums[parent]!, scores[parent]!, num, score)) break;
        nums[i] = nums[parent]!;
        scores[i] = scores[parent]!;
        i = parent;
      }
      nums[i] = num;
      scores[i] = score;
      return;
    }
    if (!this.better(num, score, nums[0]!, scores[0]!)) return;
    this.siftDownFromRoot(num, score);
  }

  /** Puts (num, score) at the root's place and sifts it down: the worse child moves up. */
  private siftDownFromRoot(num: number, score: number): void {
    const { nums, scores } = this;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= this.size) break;
      const right = left + 1;
      let worse = left;
      if (
        right < this.size &&
        this.better(nums[left]!, scores[left]!, nums[right]!, scores[right]!)
      )
        worse = right;
      if (!this.better(num, score, nums[worse]!, scores[worse]!)) break;
      nums[i] = nums[worse]!;
      scores[i] = scores[worse]!;
      i = worse;
    }
    nums[i] = num;
    scores[i] = score;
  }

  /**
   * The kept documents, best first, into `nums` and `scores` (each at least `size` long); returns
   * how many. Pops the worst one at a time into the last free place — no object per hit, no sort
   * comparator — and leaves the heap empty.
   */
  drain(nums: Int32Array, scores: Float64Array): number {
    const count = this.size;
    const heapNums = this.nums;
    const heapScores = this.scores;
    for (let out = count - 1; out >= 0; out -= 1) {
      nums[out] = heapNums[0]!;
      scores[out] = heapScores[0]!;
      this.size -= 1;
      this.siftDownFromRoot(heapNums[this.size]!, heapScores[this.size]!);
    }
    return count;
  }
}
