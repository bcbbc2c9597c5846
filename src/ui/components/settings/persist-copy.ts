import type { PersistReason } from '../../state/persistence.svelte';

/** "after your first saved memory" — when Loci asked for persistent storage, in words. */
export function persistReasonText(reason: PersistReason): string {
  switch (reason) {
    case 'memory':
      return 'after your first saved memory';
    case 'document':
      return 'after your first document';
    case 'model':
      return 'after your first model download';
    case 'install':
      return 'when you installed Loci';
    case 'user':
      return 'when you pressed “Ask for persistent storage”';
  }
}
