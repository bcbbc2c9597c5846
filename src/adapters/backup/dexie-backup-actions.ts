import type { BackupActions } from '../../core/ports/backup';
import type { DexieMemoryStore } from '../storage/dexie/dexie-memory-store';
import { exportBackupParts } from './export-backup';
import { writeBackup } from './import-backup';
import { importBackupFile } from './read-backup-blob';
import { readBackupInWorker, type BackupWorkerClient } from './worker-backup-reader';

/**
 * {@link BackupActions} over the Dexie store: what the composition root hands to Settings. With
 * a backup worker, a file is read and validated there (X187) and only written on the page.
 */
export function dexieBackupActions(
  store: DexieMemoryStore,
  worker?: BackupWorkerClient,
): BackupActions {
  return {
    exportParts: (options) => exportBackupParts(store, options),
    importFile: async (file, options) =>
      worker
        ? writeBackup(store, await readBackupInWorker(worker, file, options), options)
        : importBackupFile(store, file, options),
  };
}
