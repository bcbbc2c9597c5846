import type { Message, MessageId } from '../model';
import type { Tokens } from '../units';
import { pinnedMessage } from './pinned-message';

/**
 * The oldest-first prefix of `queue` a flush evicts to free at least `excess` tokens (C3): it
 * stops before the newest user message (or, in an event-triggered turn, the newest event), and
 * never leaves a tool result at the head of the queue without the call that produced it.
 * Returns an empty list when nothing needs to go (`excess <= 0`).
 */
export function evictablePrefix(
  queue: readonly Message[],
  count: (message: Message) => Tokens,
  excess: Tokens,
): MessageId[] {
  if (excess <= 0) return [];
  const pinned = pinnedMessage(queue);
  const stop = pinned ? queue.indexOf(pinned) : 0;
  const ids: MessageId[] = [];
  let freed = 0;
  let i = 0;
  while (i < stop && freed < excess) {
    const message = queue[i] as Message;
    ids.push(message.id);
    freed += count(message);
    i += 1;
  }
  // Keep a call and its result together: a result at the new head goes with its call.
  while (i < stop && queue[i]?.role === 'tool') {
    ids.push((queue[i] as Message).id);
    i += 1;
  }
  return ids;
}
