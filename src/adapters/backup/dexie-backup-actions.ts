import type { BackupActions } from '../../core/ports/backup';
import type { DexieMemoryStore } from '../storage/dexie/dexie-memory-store';
import { exportBackupParts } from './export-backup';
import { importBackupFile } from './read-backup-blob';

/** {@link BackupActions} over the Dexie store: what the composition root hands to Settings. */
export function dexieBackupActions(store: DexieMemoryStore): BackupActions {
  return {
    exportParts: (options) => exportBackupParts(store, options),
    importFile: (file, options) => importBackupFile(store, file, options),
  };
}
