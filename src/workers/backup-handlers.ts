import type { DecodedBackup } from '../core/backup/backup-format';
import { AppError } from '../core/errors';
import { exportBackupBlob } from '../adapters/backup/export-backup';
import { writeBackup } from '../adapters/backup/import-backup';
import { readBackupBlob, STREAM_ABOVE_BYTES } from '../adapters/backup/read-backup-blob';
import { openMemoryStore, type DexieMemoryStore } from '../adapters/storage/dexie';
import { STORE_TABLES } from '../core/ports/store-tables';
import type { BackupApi, BackupTableName, HeldBackup } from '../rpc/backup-api';

export interface BackupWorkerOptions {
  /** Files above this many bytes are read as a stream (X171); tests lower it. */
  streamAbove?: number;
  /** Opens the page's database by name for `write`; default `openMemoryStore`. */
  openStore?: (database: string) => Promise<DexieMemoryStore>;
}

/** Validated backups kept at most; the page imports one at a time. */
const MAX_HELD = 2;
/** `reading` events sent per file at most: each is a task on the page. */
const READ_EVENTS = 100;

/** The tables a `slice` may name: every table of a backup. */
const TABLES: ReadonlySet<string> = new Set<BackupTableName>(STORE_TABLES);

/**
 * The backup worker's handlers (X187): the page's own reader (`readBackupBlob`: size limit,
 * stream scanner, decryption, `validateBackup`) run off the page, so every check and every
 * error message is the page's. The decoded rows stay here until released and leave a slice at
 * a time.
 */
export function createBackupHandlers(
  options: BackupWorkerOptions = {},
): BackupApi & { heldCount(): number } {
  const streamAbove = options.streamAbove ?? STREAM_ABOVE_BYTES;
  const openStore = options.openStore ?? ((database: string) => openMemoryStore(database));
  const held = new Map<number, DecodedBackup>();
  /** The cancel switch of each held backup's write (X196). */
  const cancels = new Map<number, AbortController>();
  let nextHandle = 1;
  /** Opens the page's database, or says why not as `storage_unavailable` (the page then does it). */
  const openForBackup = async (database: string): Promise<DexieMemoryStore> => {
    try {
      return await openStore(database);
    } catch (error) {
      const e = AppError.from(error);
      throw new AppError(
        'storage_unavailable',
        `The backup worker cannot open the database: ${e.message}`,
      );
    }
  };

  return {
    async hello() {
      return 'ready';
    },

    async read(args, ctx) {
      const { file, passphrase } = readArgs(args);
      const step = Math.max(1, Math.floor(file.size / READ_EVENTS));
      let reported = 0;
      const backup = await readBackupBlob(
        file,
        {
          ...(passphrase !== undefined ? { passphrase } : {}),
          onProgress: (progress) => {
            if (progress.type === 'reading') {
              const { loadedBytes, totalBytes } = progress;
              if (loadedBytes - reported < step && loadedBytes < totalBytes) return;
              reported = loadedBytes;
            }
            if (progress.type === 'reading' || progress.type === 'checking') ctx.emit(progress);
          },
        },
        streamAbove,
      );
      if (ctx.signal.aborted) throw new AppError('cancelled', 'The import was cancelled.');
      const handle = nextHandle++;
      held.set(handle, backup);
      // A page that went away just as the result left never releases it; imports run one at a
      // time, so the oldest beyond a few can only be such a leftover.
      for (const old of held.keys()) if (held.size > MAX_HELD) held.delete(old);
      const counts = {} as HeldBackup['counts'];
      for (const [name, rows] of Object.entries(backup.tables)) {
        counts[name as BackupTableName] = rows.length;
      }
      return {
        handle,
        version: backup.version,
        exportedAt: backup.exportedAt,
        scope: backup.scope,
        counts,
      };
    },

    async slice(args) {
      const { handle, table, from, maxRows, maxChars } = (args ?? {}) as Record<string, unknown>;
      const backup = typeof handle === 'number' ? held.get(handle) : undefined;
      if (backup === undefined) {
        throw new AppError('not_found', `The backup worker holds no backup ${String(handle)}.`);
      }
      if (typeof table !== 'string' || !TABLES.has(table)) {
        throw new AppError('invalid_argument', `A backup has no table “${String(table)}”.`);
      }
      for (const [name, value] of [
        ['from', from],
        ['maxRows', maxRows],
        ['maxChars', maxChars],
      ] as const) {
        if (!Number.isInteger(value) || (value as number) < (name === 'from' ? 0 : 1)) {
          throw new AppError('invalid_argument', `“${name}” of a slice is not a whole number.`);
        }
      }
      const rows = backup.tables[table as BackupTableName] as readonly unknown[];
      const start = from as number;
      const end = Math.min(rows.length, start + (maxRows as number));
      let chars = 0;
      let to = start;
      // At least one row, however big, so the page always gets further.
      while (to < end && (to === start || chars < (maxChars as number))) {
        chars += approxChars(rows[to], (maxChars as number) - chars);
        to += 1;
      }
      return rows.slice(start, to);
    },

    async write(args, ctx) {
      const { handle, database } = (args ?? {}) as { handle?: unknown; database?: unknown };
      const backup = typeof handle === 'number' ? held.get(handle) : undefined;
      if (backup === undefined) {
        throw new AppError('not_found', `The backup worker holds no backup ${String(handle)}.`);
      }
      if (typeof database !== 'string' || database === '') {
        throw new AppError('invalid_argument', 'The backup worker was sent no database name.');
      }
      // Where it cannot, the page writes it instead (its reader keeps the rows held here).
      const store = await openForBackup(database);
      const cancel = new AbortController();
      cancels.set(handle as number, cancel);
      try {
        const summary = await writeBackup(store, backup, {
          signal: cancel.signal,
          onProgress: (progress) => {
            if (progress.type === 'comparing' || progress.type === 'writing') ctx.emit(progress);
          },
        });
        held.delete(handle as number);
        return summary;
      } finally {
        cancels.delete(handle as number);
        store.close();
      }
    },

    async export(args) {
      const { database, agentId, passphrase } = (args ?? {}) as Record<string, unknown>;
      if (typeof database !== 'string' || database === '') {
        throw new AppError('invalid_argument', 'The backup worker was sent no database name.');
      }
      for (const [name, value] of [
        ['agentId', agentId],
        ['passphrase', passphrase],
      ] as const) {
        if (value !== undefined && typeof value !== 'string') {
          throw new AppError('invalid_argument', `The export's “${name}” is no text.`);
        }
      }
      const store = await openForBackup(database);
      try {
        return await exportBackupBlob(store, {
          ...(agentId !== undefined ? { agentId: agentId as string } : {}),
          ...(passphrase !== undefined ? { passphrase: passphrase as string } : {}),
        });
      } finally {
        store.close();
      }
    },

    async cancel(args) {
      const handle = (args as { handle?: unknown } | null)?.handle;
      if (typeof handle === 'number') cancels.get(handle)?.abort();
    },

    async release(args) {
      const handle = (args as { handle?: unknown } | null)?.handle;
      if (typeof handle === 'number') held.delete(handle);
    },

    heldCount: () => held.size,
  };
}

function readArgs(args: unknown): { file: Blob; passphrase: string | undefined } {
  const { file, passphrase } = (args ?? {}) as { file?: unknown; passphrase?: unknown };
  if (!(file instanceof Blob)) {
    throw new AppError('invalid_argument', 'The backup worker was sent no file.');
  }
  if (passphrase !== undefined && typeof passphrase !== 'string') {
    throw new AppError('invalid_argument', 'The passphrase sent to the backup worker is no text.');
  }
  return { file, passphrase };
}

/**
 * About how many characters `value` costs to send: its strings' lengths, 8 per number and 4 per
 * float of a typed array. Stops counting once past `budget` (the slice is full by then).
 */
function approxChars(value: unknown, budget: number): number {
  if (typeof value === 'string') return value.length;
  if (typeof value !== 'object' || value === null) return 8;
  if (ArrayBuffer.isView(value)) return value.byteLength / 2;
  let chars = 0;
  for (const item of Array.isArray(value) ? value : Object.values(value)) {
    chars += approxChars(item, budget - chars) + 4;
    if (chars > budget) break;
  }
  return chars;
}
