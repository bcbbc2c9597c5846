/**
 * How many of the chat's newest items are on the page while a long list is being shown (X189).
 * A chat opens with its newest `step` items and shows `step` more, above them, on each animation
 * frame until all are there; from then on every item shows (a new message adds one bubble, never
 * hides the oldest). Building 200 bubbles of 20,000 characters in one task blocked the page, so
 * no frame builds more than `step` of them. Loading earlier messages (U15) reveals them the same
 * way: {@link hold} keeps the items already shown and grows from there.
 */
export class RevealFromEnd {
  /** How many of the newest items are shown, while {@link all} is false. */
  count = $state(0);
  /** True once every item is shown. */
  all = $state(false);

  constructor(private readonly step: number) {
    this.count = step;
  }

  /** Starts again from the newest `step` items (another agent or conversation). */
  reset(): void {
    this.count = this.step;
    this.all = false;
  }

  /** Keeps the `shown` items on the page and reveals those added above them step by step. */
  hold(shown: number): void {
    this.count = Math.max(shown, this.step);
    this.all = false;
  }

  /** The items on the page, oldest first. */
  visible<T>(items: readonly T[]): readonly T[] {
    return this.all || this.count >= items.length ? items : items.slice(items.length - this.count);
  }

  /**
   * Schedules the next step toward `total` items (call it from an effect: it reads `count`, so
   * the effect runs again after each step). `change` wraps the step, so the caller can keep the
   * reader's place. Returns the cleanup.
   */
  grow(total: number, change: (step: () => void) => void = (step) => step()): () => void {
    if (this.all || total === 0) return () => {};
    if (this.count >= total) {
      this.all = true;
      return () => {};
    }
    const frame = requestAnimationFrame(() =>
      change(() => {
        this.count = Math.min(total, this.count + this.step);
      }),
    );
    return () => cancelAnimationFrame(frame);
  }
}
