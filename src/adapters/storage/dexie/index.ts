import { AppError } from '../../../core/errors';
import { toStorageError } from './storage-error';
import { DexieMemoryStore } from './dexie-memory-store';
import { CURRENT_SCHEMA_VERSION, LociDb } from './loci-db';
import { installedVersion, nativeVersion, newerVersionError } from './newer-version';

export { DexieMemoryStore } from './dexie-memory-store';
export { LociDb, CURRENT_SCHEMA_VERSION } from './loci-db';
export { isQuotaError } from './storage-error';

/**
 * Opens (creating or upgrading) the IndexedDB database `dbName` and returns the memory store
 * over it. Works in pages and workers; rejects with `storage_unavailable` when IndexedDB is
 * missing or blocked (private modes of some browsers), and with `storage_newer_version` — before
 * anything is written — when a newer Loci already upgraded the database (ADR 0150).
 */
export async function openMemoryStore(dbName = 'loci'): Promise<DexieMemoryStore> {
  const known = nativeVersion(CURRENT_SCHEMA_VERSION);
  const installed = await installedVersion(dbName);
  if (installed !== null && installed > known) throw newerVersionError(installed, known);
  const db = new LociDb(dbName);
  try {
    await db.open();
  } catch (error) {
    const e = toStorageError(error, 'open the database');
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
