/**
 * The one storage-status module (S12, U77, U78, P20): usage and quota
 * (`navigator.storage.estimate()`), whether the browser keeps Loci's data under storage pressure
 * (`persisted()`), asking it to (`persist()`), and rows per tier. Every browser part degrades to
 * null / "unknown" where it is missing (old browsers, some webviews, private modes).
 */
import type { AgentId } from '../../core/model';
import type { MemoryStore, TierName, TierStats } from '../../core/ports/memory-store';

/** Whether the browser keeps our data under storage pressure. */
export type PersistState = 'persisted' | 'best_effort' | 'unknown';

export interface StorageStatus {
  /** Bytes used by this origin, or null when the browser does not say. */
  usageBytes: number | null;
  quotaBytes: number | null;
  persist: PersistState;
  tiers: Record<TierName, TierStats>;
}

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
 * Usage and quota (`navigator.storage.estimate()`), whether storage is persistent, and rows and
 * approximate bytes per tier from the store. Every browser part degrades to null / "unknown".
 */
export async function storageStatus(
  store: MemoryStore,
  agentId?: AgentId,
  manager: StorageManagerLike | undefined = defaultManager(),
): Promise<StorageStatus> {
  // A browser part that rejects (permission policy, old webview) means "unknown", by design.
  const [estimate, persisted, tiers] = await Promise.all([
    manager?.estimate ? manager.estimate().catch(() => undefined) : Promise.resolve(undefined),
    manager?.persisted ? manager.persisted().catch(() => undefined) : Promise.resolve(undefined),
    store.stats(agentId),
  ]);
  return {
    usageBytes: estimate?.usage ?? null,
    quotaBytes: estimate?.quota ?? null,
    persist: persisted === undefined ? 'unknown' : persisted ? 'persisted' : 'best_effort',
    tiers,
  };
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

/** Usage, quota and persistence of this origin's storage, as the dashboard shows them. */
export interface StorageReport {
  usage: number | null;
  quota: number | null;
  /** Whether the browser promised not to evict this site's data; null when it cannot say. */
  persisted: boolean | null;
}

/** What the storage dashboard and the persistence requests read and ask. */
export interface StorageStatusSource {
  report(): Promise<StorageReport>;
  /** Asks for persistent storage; `unknown` where the browser cannot. */
  persist(): Promise<PersistState>;
}

/** {@link StorageStatusSource} over `navigator.storage` (or another manager, in tests). */
export function browserStorageStatus(
  manager: StorageManagerLike | undefined = defaultManager(),
): StorageStatusSource {
  return {
    async report() {
      // A browser part that rejects means "unknown", by design (as in storageStatus).
      const [estimate, persisted] = await Promise.all([
        manager?.estimate ? manager.estimate().catch(() => undefined) : Promise.resolve(undefined),
        manager?.persisted ? manager.persisted().catch(() => null) : Promise.resolve(null),
      ]);
      return { usage: estimate?.usage ?? null, quota: estimate?.quota ?? null, persisted };
    },
    persist: () => requestPersistence(manager),
  };
}
