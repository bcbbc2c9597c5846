import type { BackupActions } from '../../core/ports/backup';
import type { DexieMemoryStore } from '../storage/dexie/dexie-memory-store';
import { exportBackupBlob } from './export-backup';
import { importBackupFile } from './read-backup-blob';
import { exportInWorker, importInWorker, type BackupWorkerClient } from './worker-backup-reader';

/**
 * {@link BackupActions} over the Dexie store: what the composition root hands to Settings. With
 * a backup worker, a file is read, validated and written there (X187, X195), and an export is
 * made there (X243).
 */
export function dexieBackupActions(
  store: DexieMemoryStore,
  worker?: BackupWorkerClient,
): BackupActions {
  return {
    exportFile: (options) =>
      worker ? exportInWorker(worker, store, options) : exportBackupBlob(store, options),
    importFile: async (file, options) =>
      worker
        ? importInWorker(worker, store, file, options)
        : importBackupFile(store, file, options),
  };
}
