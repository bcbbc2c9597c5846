import type { DecodedBackup } from '../../core/backup/backup-format';
import { AppError } from '../../core/errors';
import { LARGE_TABLES, STORE_TABLES, withoutTables } from '../../core/ports/store-tables';
import type { BackupApi, BackupTableName, HeldBackup } from '../../rpc/backup-api';
import type { RpcClient, RpcConnection } from '../../rpc/rpc-client';
import { OptionalWorkerClient, type OptionalWorkerOptions } from '../../rpc/optional-worker';
import { workerConnection } from '../../rpc/worker-connection';
import {
  stopIfCancelled,
  writeBackup,
  type ImportOptions,
  type ImportSummary,
} from './import-backup';
import { exportBackupBlob, type ExportOptions } from './export-backup';
import { importBackupFile } from './read-backup-blob';
import type { DexieMemoryStore } from '../storage/dexie/dexie-memory-store';

/** How long the worker may take to answer its first call before imports stay on the page. */
export const BACKUP_WORKER_START_MS = 20_000;
/** Rows fetched per slice at most: 2,000 small rows decode in a task of a few ms. */
export const RECEIVE_ROWS = 2_000;
/**
 * Characters fetched per slice at most (past its first row): decoding a slice's structured
 * clone is one task on the page, and ~4 M characters decode well within 200 ms.
 */
export const RECEIVE_CHARS = 4_000_000;

/** The order rows are fetched in: small tables first, so progress moves with the messages. */
const TABLE_ORDER: readonly BackupTableName[] = [
  ...withoutTables(STORE_TABLES, LARGE_TABLES),
  ...LARGE_TABLES,
];

/**
 * The page's side of the backup worker (X187). The first import checks that the worker starts
 * (`hello`); when it cannot — no `Worker`, a script the browser refuses, no answer in
 * {@link BACKUP_WORKER_START_MS} — `onUnavailable` is told once and every import is read on the
 * page, as before. A worker that crashes later (out of memory on a huge file) fails that import
 * with `worker_crashed` and nothing written; the next one starts a fresh worker.
 */
export class BackupWorkerClient extends OptionalWorkerClient<BackupApi> {
  constructor(rpc: RpcClient<BackupApi>, options: OptionalWorkerOptions = {}) {
    super(rpc, 'backup worker', BACKUP_WORKER_START_MS, options);
  }
}

/**
 * The backup worker as an RPC connection factory (a new worker on every restart). Its life is
 * watched through a Web Lock (X241): a worker killed mid-write has no `error` event, and the
 * import would otherwise wait for ever.
 */
export function backupWorkerConnection(): () => RpcConnection {
  return workerConnection(
    (name) =>
      new Worker(new URL('../../workers/backup.worker.ts', import.meta.url), {
        type: 'module',
        name: name ?? '',
      }),
    { lifeLock: true },
  );
}

/** The rows of a backup the worker holds, fetched a slice at a time (each a short task). */
async function receiveHeld(
  worker: BackupWorkerClient,
  held: HeldBackup,
  options: ImportOptions,
): Promise<DecodedBackup> {
  const { rpc } = worker;
  const { onProgress } = options;
  const { handle, counts } = held;
  const totalRows = Object.values(counts).reduce((sum, n) => sum + n, 0);
  let rows = 0;
  onProgress?.({ type: 'receiving', rows, totalRows });
  const tables = {} as Record<BackupTableName, unknown[]>;
  for (const table of TABLE_ORDER) {
    const count = counts[table] ?? 0;
    const list: unknown[] = [];
    while (list.length < count) {
      stopIfCancelled(options.signal);
      const slice = await rpc.call('slice', {
        handle,
        table,
        from: list.length,
        maxRows: RECEIVE_ROWS,
        maxChars: RECEIVE_CHARS,
      });
      if (slice.length === 0) {
        throw new AppError(
          'internal',
          `The backup worker sent no ${table} from ${list.length} of ${count}.`,
        );
      }
      for (const row of slice) list.push(row);
      rows += slice.length;
      onProgress?.({ type: 'receiving', rows, totalRows });
    }
    tables[table] = list;
  }
  return {
    version: held.version,
    exportedAt: held.exportedAt,
    scope: held.scope,
    tables: tables as unknown as DecodedBackup['tables'],
  };
}

/**
 * Imports a backup file through the backup worker (X187, X195): read, validated and written to
 * IndexedDB there, so the page only shows progress — a million rows never reach its heap, and
 * its main thread neither decodes them nor queues their writes. Where the worker cannot start,
 * the file is imported on the page; where it cannot open the database (`storage_unavailable`),
 * it hands the rows over in slices and the page writes them, as before.
 */
export async function importInWorker(
  worker: BackupWorkerClient,
  store: DexieMemoryStore,
  file: Blob,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  if (!(await worker.available())) return importBackupFile(store, file, options);
  const { rpc } = worker;
  const { onProgress, signal } = options;
  // Reading writes nothing: a cancel while the file is read ends the call at once.
  const held = await rpc.call(
    'read',
    { file, ...(options.passphrase !== undefined ? { passphrase: options.passphrase } : {}) },
    { ...(onProgress ? { onEvent: onProgress } : {}), ...(signal ? { signal } : {}) },
  );
  // While it writes, a cancel is a request: the write's own answer says what happened (X196).
  const cancel = () => void rpc.call('cancel', { handle: held.handle }).catch(() => undefined);
  signal?.addEventListener('abort', cancel, { once: true });
  if (signal?.aborted) cancel();
  try {
    return await rpc.call(
      'write',
      { handle: held.handle, database: store.db.name },
      { ...(onProgress ? { onEvent: onProgress } : {}) },
    );
  } catch (error) {
    if (AppError.from(error).code !== 'storage_unavailable') throw error;
    return writeBackup(store, await receiveHeld(worker, held, options), options);
  } finally {
    signal?.removeEventListener('abort', cancel);
    // A worker that crashed meanwhile holds nothing: the failed release is of no concern.
    void rpc.call('release', { handle: held.handle }).catch(() => undefined);
  }
}

/**
 * Exports through the backup worker (X243): the worker reads the database and makes the file as
 * a `Blob` a bounded piece at a time, so the page never builds or holds its text. Where the
 * worker cannot start or cannot open the database, the page makes the same Blob itself. A worker
 * that dies meanwhile fails the export with `worker_crashed` (X242); the next starts a fresh one.
 */
export async function exportInWorker(
  worker: BackupWorkerClient,
  store: DexieMemoryStore,
  options: Pick<ExportOptions, 'agentId' | 'passphrase'> = {},
): Promise<Blob> {
  if (!(await worker.available())) return exportBackupBlob(store, options);
  try {
    return await worker.rpc.call('export', {
      database: store.db.name,
      ...(options.agentId !== undefined ? { agentId: options.agentId } : {}),
      ...(options.passphrase !== undefined ? { passphrase: options.passphrase } : {}),
    });
  } catch (error) {
    if (AppError.from(error).code !== 'storage_unavailable') throw error;
    return exportBackupBlob(store, options);
  }
}
