/**
 * Splits a conversation into rounds: a round opens with a message from the user's side (`user`
 * or `event`) and holds everything up to the next one. Strategies reason in rounds because the
 * seeds do (seed 001 updates F once per round; seed 002 keeps "the last few rounds").
 */
import type { Message, MessageRole } from '../model';

/** One round, oldest message first. A leading assistant greeting forms a round of its own. */
export interface Round {
  messages: Message[];
}

/** The roles that open a round and that count as "the user's side" (seed 002). */
export const USER_SIDE_ROLES: readonly MessageRole[] = ['user', 'event'];

/** Whether a message is from the user's side of the conversation. */
export function isUserSide(message: Message): boolean {
  return USER_SIDE_ROLES.includes(message.role);
}

/** Groups `history` (oldest first) into rounds, oldest first; empty history → no rounds. */
export function splitRounds(history: readonly Message[]): Round[] {
  const rounds: Round[] = [];
  let current: Message[] = [];
  for (const message of history) {
    if (isUserSide(message) && current.length > 0) {
      rounds.push({ messages: current });
      current = [];
    }
    current.push(message);
  }
  if (current.length > 0) rounds.push({ messages: current });
  return rounds;
}
