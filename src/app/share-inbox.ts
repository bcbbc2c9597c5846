import type { Clock } from '../core/ports/clock';
import { ShareInbox } from '../ui/state/share-inbox';
import type { ShareLaunch } from '../ui/state/share-target';
import type { DocumentsState } from '../ui/state/documents.svelte';
import { ShareInboxState } from '../ui/state/share-inbox.svelte';

/**
 * The "Shared with Loci" inbox (U200, ADR 0131): what this launch brought waits there until the
 * user adds it to an agent. Expired shares are swept first.
 */
export function startShareInbox(
  launch: ShareLaunch | null,
  documents: DocumentsState,
  clock: Clock,
): ShareInboxState {
  const inbox = new ShareInbox();
  const shares = new ShareInboxState({ inbox, importer: documents, clock });
  void inbox
    .sweep(clock.now())
    .catch((e: unknown) => console.warn('sweeping the share inbox failed', e))
    .then(() => shares.receive(launch));
  return shares;
}
