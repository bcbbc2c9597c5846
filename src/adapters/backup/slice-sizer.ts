/**
 * Sizes the slices of a long write by the time each one took to queue (ADR 0172): a slice's
 * requests are queued in one task of the page, and how long that task takes per row depends
 * on the device and on how busy it is (0.1–0.7 ms per message on the shared 2-core machine).
 * Aiming each slice at {@link SLICE_TARGET_MS} keeps every task short on a slow device and
 * the slices large, so the import fast, on a quick one.
 */
export const SLICE_TARGET_MS = 40;
export const MIN_SLICE_ROWS = 50;
export const MAX_SLICE_ROWS = 2_000;

export class SliceSizer {
  /** Rows in the next slice. */
  rows: number;

  constructor(first = 500) {
    this.rows = first;
  }

  /** Records that a slice of `rows` took `spentMs` to queue; sets the size of the next one. */
  took(rows: number, spentMs: number): void {
    // Measured as 0 by a coarse clock: double, the next one will tell.
    const aimed = spentMs <= 0 ? rows * 2 : Math.floor((rows * SLICE_TARGET_MS) / spentMs);
    // At most double at once, so one fast slice does not make a slow long one.
    this.rows = Math.max(MIN_SLICE_ROWS, Math.min(MAX_SLICE_ROWS, aimed, rows * 2));
  }
}
