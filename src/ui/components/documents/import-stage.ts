import type { ImportStage } from '../../state/documents.svelte';

/**
 * How far an import is, 0…1, for its progress bar: reading 10 %, parsing and splitting 5 %,
 * embedding most of the rest.
 */
export function stageFraction(stage: ImportStage): number {
  switch (stage.type) {
    case 'queued':
      return 0;
    case 'reading':
      return stage.totalBytes > 0 ? (0.1 * stage.loadedBytes) / stage.totalBytes : 0.1;
    case 'parsing':
      return Math.min(
        0.15,
        0.1 + (stage.totalChars > 0 ? (0.05 * stage.doneChars) / stage.totalChars : 0),
      );
    case 'chunked':
      return 0.15;
    case 'embedding':
      return stage.total > 0 ? 0.15 + (0.8 * stage.done) / stage.total : 0.15;
    case 'indexing':
      return 0.97;
    case 'indexed':
    case 'duplicate':
    case 'cancelled':
    case 'failed':
      return 1;
  }
}

/** The stage in words, as the import list shows it (U133). */
export function stageText(stage: ImportStage): string {
  switch (stage.type) {
    case 'queued':
      return 'Waiting to start';
    case 'reading':
      return stage.totalBytes > 0
        ? `Reading ${Math.floor((100 * stage.loadedBytes) / stage.totalBytes)}%`
        : 'Reading';
    case 'parsing':
      return stage.totalChars > 0
        ? `Splitting into passages ${Math.floor((100 * stage.doneChars) / stage.totalChars)}%`
        : 'Splitting into passages';
    case 'chunked':
      return `Split into ${plural(stage.passages, 'passage')}`;
    case 'embedding':
      return `Embedding ${stage.done}/${stage.total}`;
    case 'indexing':
      return `Indexing ${plural(stage.passages, 'passage')}`;
    case 'indexed':
      return `Imported: ${plural(stage.passages, 'passage')}`;
    case 'duplicate':
      return `Already in your library as “${stage.title}” — nothing was added.`;
    case 'cancelled':
      return 'Cancelled — nothing was kept.';
    case 'failed':
      return `${stage.what} ${stage.action}`;
  }
}

/** A document's MIME type as a short label (`PDF`, `Markdown`…). */
export function typeLabel(mimeType: string): string {
  switch (mimeType) {
    case 'application/pdf':
      return 'PDF';
    case 'text/markdown':
      return 'Markdown';
    case 'text/html':
      return 'HTML';
    case 'text/plain':
      return 'Text';
    default:
      return mimeType || 'File';
  }
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
