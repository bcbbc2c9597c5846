import { AppError } from '../../../core/errors';

/** Dexie opens schema version `v` as IndexedDB version `v × 10`. */
export function nativeVersion(schemaVersion: number): number {
  return Math.round(schemaVersion * 10);
}

/** The refusal of a build whose schema is older than the data on this device (ADR 0150). */
export function newerVersionError(found: number, known: number): AppError {
  return new AppError(
    'storage_newer_version',
    `The database was written by a newer Loci (schema ${found / 10}); this build knows schema ${known / 10} and leaves it untouched.`,
    { found: found / 10, known: known / 10 },
  );
}

/**
 * The IndexedDB version of `name` on this device without opening it (`indexedDB.databases()`),
 * or null when the database does not exist or the browser cannot tell.
 *
 * Why not just open it: when the installed version is newer, Dexie 4 retries the open without a
 * version and, when the newer schema lacks an index this build declares, "patches" it by adding
 * the index and bumping the version — a write to a database this build does not understand.
 */
export async function installedVersion(
  name: string,
  factory: Pick<IDBFactory, 'databases'> | undefined = globalThis.indexedDB,
): Promise<number | null> {
  if (!factory?.databases) return null;
  try {
    const found = (await factory.databases()).find((d) => d.name === name);
    return found?.version ?? null;
  } catch (error) {
    // Some browsers list no databases in workers or private modes; the check after open remains.
    console.warn('indexedDB.databases() failed', error);
    return null;
  }
}
