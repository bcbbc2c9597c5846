/**
 * Whether the chat keeps following the newest message, decided from one scroll event (U150,
 * U151). Only the reader moving *up* stops the follow: content that grows between our scroll to
 * the bottom and the scroll event it fires (a long reply lands a frame later) moves the bottom
 * away without anyone scrolling, and must not count as "the user scrolled up".
 */

/** Within this many pixels of the end the view counts as "at the bottom". */
export const AT_BOTTOM_PX = 24;

export interface ScrollMetrics {
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
}

/** Pixels of content below the visible part. */
export function distanceFromBottom(m: ScrollMetrics): number {
  return Math.max(0, m.scrollHeight - m.scrollTop - m.clientHeight);
}

/**
 * The follow state after a scroll event: at the bottom → following; moved up (and not just the
 * clamp of a shrinking list, which leaves the view at the bottom) → not following; anything else
 * (moving down, or standing still while content grew) keeps what it was.
 */
export function followAfterScroll(
  following: boolean,
  previousTop: number,
  m: ScrollMetrics,
): boolean {
  if (distanceFromBottom(m) <= AT_BOTTOM_PX) return true;
  if (m.scrollTop < previousTop - 1) return false;
  return following;
}
