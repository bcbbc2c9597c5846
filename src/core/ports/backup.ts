import type { AgentId } from '../model';

/**
 * How far an import is (X188), in the order the stages come: the file read (bytes, for a file
 * large enough to be read as a stream), the whole file checked, the checked rows handed to the
 * page, their ids compared with the rows on this device, then the messages written.
 */
export type BackupImportProgress =
  | { type: 'reading'; loadedBytes: number; totalBytes: number }
  | { type: 'checking' }
  | { type: 'receiving'; rows: number; totalRows: number }
  | { type: 'comparing'; rows: number; totalRows: number }
  | { type: 'writing'; messages: number; totalMessages: number };

/**
 * Export and import of backups (U74–U76), as the Settings screen uses them; the composition root
 * builds the real one over the Dexie store, so the UI never depends on the storage adapter.
 */
export interface BackupActions {
  /**
   * The backup file as one `Blob`: everything, or one agent; encrypted when a passphrase is
   * given. Made a bounded piece at a time (off the page where a backup worker starts), so no
   * string ever holds the file (X243).
   */
  exportFile(options: { agentId?: AgentId; passphrase?: string }): Promise<Blob>;
  /**
   * Validates all of `file` (read as a stream when large; off the page in the backup worker
   * where one starts, X187), then writes it in one transaction, telling `onProgress` how far it
   * is; throws a coded AppError and writes nothing on a bad file. When `signal` aborts, it
   * rejects with `cancelled` once the writer has rolled back, so nothing was written — or
   * resolves, when the import had already been written as a whole (X196).
   */
  importFile(
    file: Blob,
    options: {
      passphrase?: string;
      onProgress?: (progress: BackupImportProgress) => void;
      signal?: AbortSignal;
    },
  ): Promise<Record<string, number>>;
}
