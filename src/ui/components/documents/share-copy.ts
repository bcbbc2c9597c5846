import type { EpochMs } from '../../../core/units';
import type { ShareNotice } from '../../state/share-inbox.svelte';
import { SHARE_LIMITS } from '../../state/share-limits';

/** What the screen says when a share was not taken into the inbox (U203, U204). */
export function refusalText(notice: ShareNotice): string {
  switch (notice.refused) {
    case 'cross_site':
      return `Loci ignored what ${notice.from && notice.from !== 'unknown' ? `a page at ${notice.from}` : 'another website'} tried to send it. Only the share sheet of this device can share into Loci; nothing was kept.`;
    case 'framed':
    case 'not_navigation':
      return 'Loci ignored a share that did not come from the share sheet of this device; nothing was kept.';
    case 'inbox_full':
      return `The “Shared with Loci” inbox already holds ${SHARE_LIMITS.pending} shares. Add or dismiss some, then share again.`;
    case 'unreadable':
      return 'What was shared could not be read. Share it again, or pick the files here.';
  }
}

/** "just now", "5 min ago", "3 h ago". */
export function shareAge(at: EpochMs, now: EpochMs): string {
  const minutes = Math.floor((now - at) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  return `${Math.floor(minutes / 60)} h ago`;
}
