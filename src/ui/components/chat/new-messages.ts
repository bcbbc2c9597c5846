/**
 * The "new messages" button of a chat the reader scrolled up in (U152): how many messages arrived
 * below since they left the bottom, and what the button says.
 */

export interface NewMessagesButton {
  /** Messages after the last one the reader saw at the bottom. */
  count: number;
  /** The visible text. */
  text: string;
  /** The accessible name (contains the visible text). */
  label: string;
}

/**
 * `shownIds` are the chat's messages oldest first; `seenId` the newest one shown while the view
 * was following. A seen message that is no longer listed (deleted) counts nothing as new.
 */
export function newMessagesButton(
  shownIds: readonly string[],
  seenId: string | null,
): NewMessagesButton {
  const at = seenId === null ? -1 : shownIds.lastIndexOf(seenId);
  const count = seenId === null ? shownIds.length : at < 0 ? 0 : shownIds.length - at - 1;
  if (count === 0) {
    return { count, text: 'Latest message', label: 'Jump to the latest message' };
  }
  const text = `${count.toLocaleString()} new ${count === 1 ? 'message' : 'messages'}`;
  return { count, text, label: `${text}: jump to the latest` };
}
