/**
 * Keeps a scrolling message list at its newest end while the reader is there (U150–U152).
 *
 * Whenever the list or its content changes size — a message lands, a reply streams, the composer
 * grows, the phone keyboard opens — the view is put back at the bottom, unless the reader has
 * scrolled up to read: a wheel or touch gesture upwards, an upward key, or a scroll event that
 * moved up ({@link followAfterScroll}). Reaching the bottom again, sending, or the "new messages"
 * button resumes following.
 */
import { followAfterScroll } from './scroll-intent';

const UP_KEYS: Record<string, true> = { ArrowUp: true, PageUp: true, Home: true };

export class FollowScroll {
  /** True while the view sticks to the newest message. */
  following = $state(true);
  private log: HTMLElement | null = null;
  private lastTop = 0;

  /** Starts following `log`, whose scrolled content is `content`; returns the cleanup. */
  attach(log: HTMLElement, content: HTMLElement): () => void {
    this.log = log;
    const observer = new ResizeObserver(() => {
      if (this.following) this.stick();
    });
    observer.observe(content);
    observer.observe(log);
    let touchY: number | null = null;
    const onScroll = (): void => {
      this.following = followAfterScroll(this.following, this.lastTop, log);
      this.lastTop = log.scrollTop;
    };
    // Gestures say "up" before the scroll event does: a reply streaming in would otherwise pull
    // the view back down between the gesture and its scroll event.
    const onWheel = (e: WheelEvent): void => {
      if (e.deltaY < 0 && log.scrollTop > 0) this.following = false;
    };
    const onTouchStart = (e: TouchEvent): void => {
      touchY = e.touches[0]?.clientY ?? null;
    };
    const onTouchMove = (e: TouchEvent): void => {
      const y = e.touches[0]?.clientY;
      // A finger moving down scrolls the content up.
      if (touchY !== null && y !== undefined && y > touchY + 4 && log.scrollTop > 0) {
        this.following = false;
      }
    };
    const onKeydown = (e: KeyboardEvent): void => {
      const field = e.target instanceof HTMLElement && e.target.closest('textarea, input');
      if (UP_KEYS[e.key] && !field && log.scrollTop > 0) this.following = false;
    };
    log.addEventListener('scroll', onScroll, { passive: true });
    log.addEventListener('wheel', onWheel, { passive: true });
    log.addEventListener('touchstart', onTouchStart, { passive: true });
    log.addEventListener('touchmove', onTouchMove, { passive: true });
    log.addEventListener('keydown', onKeydown);
    this.toBottom();
    return () => {
      observer.disconnect();
      log.removeEventListener('scroll', onScroll);
      log.removeEventListener('wheel', onWheel);
      log.removeEventListener('touchstart', onTouchStart);
      log.removeEventListener('touchmove', onTouchMove);
      log.removeEventListener('keydown', onKeydown);
      if (this.log === log) this.log = null;
    };
  }

  /** Goes to the newest message and follows from there (sending, the "new messages" button). */
  toBottom(): void {
    this.following = true;
    this.stick();
  }

  /** Stops following without moving (e.g. before loading earlier messages above). */
  release(): void {
    this.following = false;
  }

  private stick(): void {
    const log = this.log;
    if (!log) return;
    log.scrollTop = log.scrollHeight;
    this.lastTop = log.scrollTop;
  }
}
