/**
 * What the Settings screen needs for backups (U74–U76): the {@link BackupActions} port, handed
 * in by the composition root, and the file name a backup is saved under.
 */
import type { BackupActions } from '../../../core/ports/backup';

export type { BackupActions };

/** A file name that sorts by date: `loci-backup-2026-03-01[-agent].json`. */
export function backupFileName(at: Date, scope: string | null, encrypted: boolean): string {
  const day = at.toISOString().slice(0, 10);
  const safe = scope ? '-' + scope.replace(/[^\w-]+/g, '-').slice(0, 40) : '';
  return `loci-backup-${day}${safe}${encrypted ? '.encrypted' : ''}.json`;
}
