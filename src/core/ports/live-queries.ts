/**
 * Watching a store query (issue 38 item 3): the UI keeps a query's result live through this port,
 * never through the storage library. The Dexie store implements it with Dexie's `liveQuery`
 * (re-run after any write that touches what the query read, in this tab, another tab or a
 * worker); the in-memory test store re-runs every watched query after each of its writes.
 */
export interface QueryObserver<T> {
  next(value: T): void;
  error(error: unknown): void;
}

export interface QuerySubscription {
  unsubscribe(): void;
}

export interface LiveQueries {
  /**
   * Runs `query` and hands its result to `observer.next`, asynchronously; again whenever a write
   * may have changed it, until `unsubscribe`. `query` must only await this store's own reads.
   */
  watch<T>(query: () => Promise<T>, observer: QueryObserver<T>): QuerySubscription;
}
