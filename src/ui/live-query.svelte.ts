/**
 * A store's live query as rune state: the value re-renders whenever a write anywhere — this tab,
 * another tab, a worker — touches what the query read (the store's `watch`, the LiveQueries
 * port; Dexie's `liveQuery` in the app). Call it during component setup; it subscribes in an
 * `$effect`, so a query that reads props (an agent id) re-subscribes when they change and
 * unsubscribes on unmount.
 */
import { AppError } from '../core/errors';
import type { LiveQueries } from '../core/ports/live-queries';

export class LiveValue<T> {
  /** The latest result; `initial` until the first one arrives. */
  current = $state.raw<T>() as T;
  /** The last failure, as a coded fault; cleared by the next result. */
  error = $state.raw<AppError | null>(null);
  /** Whether a result has arrived for the current query. */
  ready = $state(false);

  constructor(initial: T) {
    this.current = initial;
  }
}

/**
 * Keeps `makeQuery()`'s result live. `makeQuery` runs inside the effect, so the props it reads
 * are tracked, and so is `store()` (a prop); it returns the querier the store watches (which must only await the store's own
 * reads — no fetch, no worker calls — or the dependency tracking is lost).
 */
export function live<T>(
  store: () => LiveQueries,
  makeQuery: () => () => Promise<T>,
  initial: T,
): LiveValue<T> {
  const value = new LiveValue<T>(initial);
  $effect(() => {
    const querier = makeQuery();
    value.ready = false;
    const subscription = store().watch(querier, {
      next: (result) => {
        value.current = result;
        value.error = null;
        value.ready = true;
      },
      error: (error: unknown) => {
        value.error = AppError.from(error, 'storage_failed');
      },
    });
    return () => subscription.unsubscribe();
  });
  return value;
}
