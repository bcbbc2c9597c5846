/**
 * A worker's life as a Web Lock (X241, ADR 0192). A dedicated worker that goes away without an
 * `error` event — terminated by the browser, out of memory, its thread killed — leaves the page's
 * pending calls waiting for ever: nothing on a `Worker` says it is gone. So the worker holds a
 * lock named after itself for as long as it lives and tells the page once it does; the page then
 * asks for the same lock, which the browser grants only when the worker's context is gone (its
 * locks are released with it), and treats that grant as a crash.
 */

/** Names of life locks start with this; a worker whose `name` does not holds none. */
export const LIFE_LOCK_PREFIX = 'loci-worker-life:';

/** The message a worker posts once it holds its life lock (not an RPC response: the client skips it). */
export const LIFE_LOCK_HELD = 'life-lock-held';

/** What the worker side needs of its global scope. */
export interface LifeLockScope {
  name: string;
  postMessage(message: unknown): void;
}

/** The Web Locks API where this context has it (secure contexts; every current browser). */
function locks(): LockManager | undefined {
  return (globalThis.navigator as Navigator | undefined)?.locks;
}

/**
 * Worker side: holds the lock named by the worker's `name` until the worker ends, then posts
 * {@link LIFE_LOCK_HELD}. Does nothing where the worker has no life-lock name or no Web Locks.
 */
export function holdLifeLock(scope: LifeLockScope): void {
  const manager = locks();
  if (!manager || !scope.name.startsWith(LIFE_LOCK_PREFIX)) return;
  void manager.request(scope.name, () => {
    scope.postMessage({ type: LIFE_LOCK_HELD });
    // Never settles: the lock is released by the browser when this worker's context goes away.
    return new Promise<never>(() => undefined);
  });
}

/** A fresh life-lock name for a worker about to be created; null without Web Locks. */
export function newLifeLockName(): string | null {
  return locks() ? `${LIFE_LOCK_PREFIX}${globalThis.crypto.randomUUID()}` : null;
}

/**
 * Page side: once the worker says it holds lock `name`, asks for that lock and calls `onGone`
 * when it is granted, i.e. when the worker is gone. The returned function stops watching (call
 * it before terminating the worker on purpose).
 */
export function watchLifeLock(
  endpoint: Pick<Worker, 'addEventListener' | 'removeEventListener'>,
  name: string,
  onGone: () => void,
): () => void {
  const manager = locks();
  if (!manager) return () => undefined;
  const stop = new AbortController();
  const onMessage = (event: MessageEvent): void => {
    if ((event.data as { type?: unknown } | null)?.type !== LIFE_LOCK_HELD) return;
    endpoint.removeEventListener('message', onMessage);
    manager
      .request(name, { signal: stop.signal }, () => {
        if (!stop.signal.aborted) onGone();
      })
      // An abort (stop watching) rejects the request: that is the point of aborting it.
      .catch(() => undefined);
  };
  endpoint.addEventListener('message', onMessage);
  return () => {
    endpoint.removeEventListener('message', onMessage);
    stop.abort();
  };
}
