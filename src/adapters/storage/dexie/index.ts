import { AppError } from '../../../core/errors';
import { toStorageError } from './storage-error';
import { DexieMemoryStore } from './dexie-memory-store';
import { LociDb } from './loci-db';

export { DexieMemoryStore } from './dexie-memory-store';
export { LociDb, CURRENT_SCHEMA_VERSION } from './loci-db';
export { isQuotaError } from './storage-error';

/**
 * Opens (creating or upgrading) the IndexedDB database `dbName` and returns the memory store
 * over it. Works in pages and workers; rejects with `storage_unavailable` when IndexedDB is
 * missing or blocked (private modes of some browsers).
 */
export async function openMemoryStore(dbName = 'loci'): Promise<DexieMemoryStore> {
  const db = new LociDb(dbName);
  try {
    await db.open();
  } catch (error) {
    const e = toStorageError(error, 'open the database');
    if (e.code === 'storage_quota_exceeded') throw e;
    throw new AppError('storage_unavailable', `IndexedDB cannot be opened here: ${e.message}`);
  }
  return new DexieMemoryStore(db);
}
