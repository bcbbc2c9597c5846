/**
 * The one storage-status module (S12, U77, U78, P20): usage and quota
 * (`navigator.storage.estimate()`), whether the browser keeps Loci's data under storage pressure
 * (`persisted()`) and asking it to (`persist()`). Every browser part degrades to null /
 * "unknown" where it is missing (old browsers, some webviews, private modes). Rows per tier come
 * from `MemoryStore.stats`, not from here.
 */
import type {
  PersistState,
  StorageReport,
  StorageStatusSource,
} from '../../core/ports/storage-status';

export type { PersistState, StorageReport, StorageStatusSource };

/** The subset of `navigator.storage` used here (missing in old browsers and some webviews). */
export interface StorageManagerLike {
  estimate?: () => Promise<{ usage?: number; quota?: number }>;
  persist?: () => Promise<boolean>;
  persisted?: () => Promise<boolean>;
}

function defaultManager(): StorageManagerLike | undefined {
  return typeof navigator === 'undefined'
    ? undefined
    : (navigator.storage as StorageManagerLike | undefined);
}

/**
 * Asks the browser to keep our data under storage pressure. Returns the result; headless
 * Chromium (and Chrome without engagement) answers false. The app asks when it matters (the
 * first saved memory, document, model download, install: `PersistenceState`).
 */
export async function requestPersistence(
  manager: StorageManagerLike | undefined = defaultManager(),
): Promise<PersistState> {
  if (!manager?.persist) return 'unknown';
  try {
    return (await manager.persist()) ? 'persisted' : 'best_effort';
  } catch (error) {
    // A browser that throws here simply does not support persistence; say so, do not fail.
    console.warn('navigator.storage.persist() failed', error);
    return 'unknown';
  }
}

/** {@link StorageStatusSource} over `navigator.storage` (or another manager, in tests). */
export function browserStorageStatus(
  manager: StorageManagerLike | undefined = defaultManager(),
): StorageStatusSource {
  return {
    async report() {
      // A browser part that rejects means "unknown", by design .
      const [estimate, persisted] = await Promise.all([
        manager?.estimate ? manager.estimate().catch(() => undefined) : Promise.resolve(undefined),
        manager?.persisted ? manager.persisted().catch(() => null) : Promise.resolve(null),
      ]);
      return { usage: estimate?.usage ?? null, quota: estimate?.quota ?? null, persisted };
    },
    persist: () => requestPersistence(manager),
  };
}
