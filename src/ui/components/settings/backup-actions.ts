/**
 * What the Settings screen needs from the backup adapter (U74–U76), as one small interface so
 * the screen does not depend on Dexie; {@link dexieBackupActions} is the real one.
 */
import type { AgentId } from '../../../core/model';
import { exportBackupParts } from '../../../adapters/backup/export-backup';
import { importBackupFile } from '../../../adapters/backup/read-backup-blob';
import type { DexieMemoryStore } from '../../../adapters/storage/dexie/dexie-memory-store';

export interface BackupActions {
  /**
   * The backup text in parts (join them, or `new Blob(parts)`): everything, or one agent;
   * encrypted when a passphrase is given.
   */
  exportParts(options: { agentId?: AgentId; passphrase?: string }): Promise<readonly string[]>;
  /**
   * Validates all of `file` (read as a stream when large), then writes it in one transaction;
   * throws a coded AppError and writes nothing on a bad file.
   */
  importFile(file: Blob, options: { passphrase?: string }): Promise<Record<string, number>>;
}

export function dexieBackupActions(store: DexieMemoryStore): BackupActions {
  return {
    exportParts: (options) => exportBackupParts(store, options),
    importFile: (file, options) => importBackupFile(store, file, options),
  };
}

/** A file name that sorts by date: `loci-backup-2026-03-01[-agent].json`. */
export function backupFileName(at: Date, scope: string | null, encrypted: boolean): string {
  const day = at.toISOString().slice(0, 10);
  const safe = scope ? '-' + scope.replace(/[^\w-]+/g, '-').slice(0, 40) : '';
  return `loci-backup-${day}${safe}${encrypted ? '.encrypted' : ''}.json`;
}
