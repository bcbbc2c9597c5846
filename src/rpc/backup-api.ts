/**
 * The backup worker's handler map (`src/workers/backup.worker.ts`, rule X187): a backup file is
 * read, decrypted, parsed and validated there, so a file of a million messages never holds the
 * page in one long task. The file crosses as a `Blob` (structured clone passes a reference, not
 * the bytes); the validated rows stay in the worker, which writes them to IndexedDB itself
 * (`write`, ADR 0179), so a million rows never reach the page's heap. Where the worker cannot
 * open the database, the page fetches them a slice at a time, each slice one small message. An
 * export is made here too (`export`, X243) and crosses as one `Blob`.
 */
import type { DecodedBackup } from '../core/backup/backup-format';
import type { CallContext } from './protocol';

/** The tables of a decoded backup, by name. */
export type BackupTableName = keyof DecodedBackup['tables'];

/** What `read` emits: bytes of the file read so far (large files, read as a stream), then checking. */
export type BackupReadEvent =
  { type: 'reading'; loadedBytes: number; totalBytes: number } | { type: 'checking' };

/** What `write` emits: the clash check's rows, then the messages written (as the page's writer). */
export type BackupWriteEvent =
  | { type: 'comparing'; rows: number; totalRows: number }
  | { type: 'writing'; messages: number; totalMessages: number };

/** A validated backup held in the worker: its head and how many rows each table has. */
export interface HeldBackup {
  handle: number;
  version: DecodedBackup['version'];
  exportedAt: DecodedBackup['exportedAt'];
  scope: DecodedBackup['scope'];
  counts: Record<BackupTableName, number>;
}

export type BackupApi = {
  /** Answers once the worker's script runs: the page's check that a worker can start at all. */
  hello(args: null): Promise<'ready'>;
  /**
   * Reads, decrypts when needed (with `passphrase`), parses and validates the whole file, with
   * exactly the checks of the page's reader, and keeps the rows under the returned handle until
   * `release`. Rejects with `backup_invalid`, `backup_unsupported_version` or
   * `backup_wrong_passphrase` (the same message and path as on the page), `invalid_argument` for
   * a malformed request, and `cancelled` when cancelled.
   */
  read(
    args: { file: Blob; passphrase?: string },
    ctx: CallContext<BackupReadEvent>,
  ): Promise<HeldBackup>;
  /**
   * Rows of `table` from `from` on: at most `maxRows`, and past the first no more than about
   * `maxChars` characters of their text, so a slice of big messages stays small. Empty at the
   * end of the table; `not_found` for a handle released or never made.
   */
  slice(args: {
    handle: number;
    table: BackupTableName;
    from: number;
    maxRows: number;
    maxChars: number;
  }): Promise<unknown[]>;
  /**
   * Writes a held backup into the IndexedDB database named `database` with the page's own
   * writer (`writeBackup`: the clash check, then one transaction), and frees it. Resolves with
   * the rows written per table. Rejects with `storage_unavailable` when the worker cannot open
   * the database (the page then writes it), `backup_invalid` for an id another agent holds,
   * `not_found` for a handle not held, and the storage errors of the page's writer.
   */
  write(
    args: { handle: number; database: string },
    ctx: CallContext<BackupWriteEvent>,
  ): Promise<Record<BackupTableName, number>>;
  /**
   * Cancels the `write` of a held backup (X196): it stops before its next slice and rolls the
   * transaction back, and that `write` rejects with `cancelled` — or resolves, when everything
   * was written before the cancel arrived. The page awaits that answer, not this call's.
   */
  cancel(args: { handle: number }): Promise<void>;
  /**
   * Exports the IndexedDB database named `database` — everything, or agent `agentId` — as one
   * `Blob` of the backup's text (X243, ADR 0192), encrypted when `passphrase` is given: made
   * here, a bounded piece at a time, so the page neither builds nor holds the file's text; it
   * receives the Blob (a reference, not the bytes). Rejects with `storage_unavailable` when the
   * worker cannot open the database (the page then exports it), `not_found` for no such agent,
   * and the storage errors of the page's exporter.
   */
  export(args: { database: string; agentId?: string; passphrase?: string }): Promise<Blob>;
  /** Frees a held backup (a handle unknown by now is fine). */
  release(args: { handle: number }): Promise<void>;
};
