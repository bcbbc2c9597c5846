import type { AgentId } from '../model';

/**
 * Export and import of backups (U74–U76), as the Settings screen uses them; the composition root
 * builds the real one over the Dexie store, so the UI never depends on the storage adapter.
 */
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
