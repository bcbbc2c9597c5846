import type { Message } from '../model';

/**
 * The message the next reply answers, which every plan keeps (C3): the newest user message, or
 * in an event-triggered turn the newest event, or else the newest message.
 */
export function pinnedMessage(history: readonly Message[]): Message | undefined {
  const user = history.findLast((m) => m.role === 'user');
  return user ?? history.findLast((m) => m.role === 'event') ?? history[history.length - 1];
}
