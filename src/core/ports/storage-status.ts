/** Whether the browser keeps our data under storage pressure. */
export type PersistState = 'persisted' | 'best_effort' | 'unknown';

/** Usage, quota and persistence of this origin's storage, as the dashboard shows them. */
export interface StorageReport {
  usage: number | null;
  quota: number | null;
  /** Whether the browser promised not to evict this site's data; null when it cannot say. */
  persisted: boolean | null;
}

/**
 * What the storage dashboard and the persistence requests read and ask (S12, P20). The browser
 * adapter is `browserStorageStatus` in `src/adapters/storage/storage-status.ts`.
 */
export interface StorageStatusSource {
  report(): Promise<StorageReport>;
  /** Asks for persistent storage; `unknown` where the browser cannot. */
  persist(): Promise<PersistState>;
}
