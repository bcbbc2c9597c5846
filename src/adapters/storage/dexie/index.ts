import { AppError } from '../../../core/errors';
import { toStorageError } from './storage-error';
import { DexieMemoryStore } from './dexie-memory-store';
import { CURRENT_SCHEMA_VERSION, LociDb, type UpgradeProgress } from './loci-db';
import { installedVersion, nativeVersion, newerVersionError } from './newer-version';

export { DexieMemoryStore } from './dexie-memory-store';
export { LociDb, CURRENT_SCHEMA_VERSION, type UpgradeProgress } from './loci-db';
export { isQuotaError } from './storage-error';

/**
 * Opens (creating or upgrading) the IndexedDB database `dbName` and returns the memory store
 * over it. Works in pages and workers; rejects with `storage_unavailable` when IndexedDB is
 * missing or blocked (private modes of some browsers), and with `storage_newer_version` — before
 * anything is written — when a newer Loci already upgraded the database (ADR 0150).
 * `onUpgrade` hears the progress of a schema upgrade while one runs (U215); one that fails rejects
 * with `storage_upgrade_failed`, and the database keeps its old version and rows (S29, ADR 0171).
 */
export async function openMemoryStore(
  dbName = 'loci',
  onUpgrade?: (progress: UpgradeProgress) => void,
): Promise<DexieMemoryStore> {
  const known = nativeVersion(CURRENT_SCHEMA_VERSION);
  const installed = await installedVersion(dbName);
  if (installed !== null && installed > known) throw newerVersionError(installed, known);
  let upgrading = false;
  const db = new LociDb(dbName, CURRENT_SCHEMA_VERSION, (progress) => {
    upgrading = true;
    onUpgrade?.(progress);
  });
  try {
    await db.open();
  } catch (error) {
    const e = toStorageError(error, 'open the database');
    if (upgrading)
      throw new AppError(
        'storage_upgrade_failed',
        `The schema upgrade was rolled back: ${e.message}`,
      );
    if (e.code === 'storage_quota_exceeded') throw e;
    throw new AppError('storage_unavailable', `IndexedDB cannot be opened here: ${e.message}`);
  }
  // Where `indexedDB.databases()` is missing, Dexie has opened the newer database as it is.
  const opened = db.backendDB().version;
  if (opened > known) {
    db.close();
    throw newerVersionError(opened, known);
  }
  return new DexieMemoryStore(db);
}
