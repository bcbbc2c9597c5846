/**
 * Waits for `work` unless `signal` aborts first (A5): a Stop while the turn is still starting —
 * indexing the trigger, the recall search, both waiting on the embed worker — ends the turn at
 * once instead of after the worker answers. The work itself goes on (its result is dropped, and a
 * failure of it is observed here so it is never unhandled).
 */
export const CANCELLED: unique symbol = Symbol('cancelled');

export function orCancelled<T>(
  work: Promise<T>,
  signal: AbortSignal | undefined,
): Promise<T | typeof CANCELLED> {
  if (!signal) return work;
  const dropped = (): typeof CANCELLED => {
    // Its outcome no longer matters to anyone: the turn was cancelled while it ran.
    work.catch(() => undefined);
    return CANCELLED;
  };
  if (signal.aborted) return Promise.resolve(dropped());
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(dropped());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
