/**
 * Usage, quota and persistence of this origin's storage (U77, U78). The default reads
 * `navigator.storage`; a page without it (old browsers, some private modes) gets nulls, which
 * the dashboard shows as "unknown" rather than as zero.
 */
export interface StorageReport {
  usage: number | null;
  quota: number | null;
  /** Whether the browser promised not to evict this site's data; null when it cannot say. */
  persisted: boolean | null;
}

export interface StorageStatusSource {
  report(): Promise<StorageReport>;
  /** Asks for persistent storage; true when granted. */
  persist(): Promise<boolean>;
}

export function browserStorageStatus(nav: Navigator = navigator): StorageStatusSource {
  const storage = nav.storage as StorageManager | undefined;
  return {
    async report() {
      if (!storage) return { usage: null, quota: null, persisted: null };
      const [estimate, persisted] = await Promise.all([
        storage.estimate ? storage.estimate() : Promise.resolve<StorageEstimate>({}),
        storage.persisted ? storage.persisted() : Promise.resolve<boolean | null>(null),
      ]);
      return { usage: estimate.usage ?? null, quota: estimate.quota ?? null, persisted };
    },
    async persist() {
      return storage?.persist ? storage.persist() : false;
    },
  };
}
