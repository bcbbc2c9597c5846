/**
 * The newest of a fast stream of values, handed on at most once a frame (U290): however fast
 * pieces of a reply arrive, the bubble is drawn once per paint, so a fast or endless stream cannot
 * hold the page.
 */

/** `requestAnimationFrame` in a page, a microtask where there is none (Node tests). */
export const defaultNextFrame = (callback: () => void): void => {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => callback());
  else queueMicrotask(callback);
};

export class FrameLatest<T> {
  private pending: { value: T } | null = null;
  private asked = false;

  constructor(
    private readonly apply: (value: T) => void,
    private readonly nextFrame: (callback: () => void) => void = defaultNextFrame,
  ) {}

  /** Keeps `value` as the newest; it is applied at the next frame unless a newer one comes. */
  push(value: T): void {
    this.pending = { value };
    if (this.asked) return;
    this.asked = true;
    this.nextFrame(() => {
      this.asked = false;
      const pending = this.pending;
      this.pending = null;
      if (pending) this.apply(pending.value);
    });
  }

  /** Drops a value still waiting for its frame. */
  cancel(): void {
    this.pending = null;
  }
}
