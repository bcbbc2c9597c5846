/**
 * The line the backup card shows while an import runs (X188), in plain words: "Reading the file
 * 40%", "Checking the file…", "Preparing the import 40%", "Comparing with this device 40%",
 * "Importing messages 40%". Percentages
 * are whole and never reach 100 before the stage is done, so a line only changes once per percent.
 */
import type { BackupImportProgress } from '../../../core/ports/backup';

const percent = (done: number, total: number): number =>
  total <= 0 ? 100 : Math.min(100, Math.floor((done / total) * 100));

export function describeImportProgress(progress: BackupImportProgress): string {
  switch (progress.type) {
    case 'reading':
      return `Reading the file ${percent(progress.loadedBytes, progress.totalBytes)}%`;
    case 'checking':
      return 'Checking the file…';
    case 'receiving':
      return `Preparing the import ${percent(progress.rows, progress.totalRows)}%`;
    case 'comparing':
      return `Comparing with this device ${percent(progress.rows, progress.totalRows)}%`;
    case 'writing':
      return `Importing messages ${percent(progress.messages, progress.totalMessages)}%`;
  }
}
