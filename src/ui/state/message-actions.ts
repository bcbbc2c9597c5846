/**
 * Which messages of the chat offer "Edit" and "Regenerate" (U183–U184, ADR 0104): only the
 * latest turn's. The latest turn is the newest turn record; its trigger is the message it
 * answers. "Edit" is on that trigger when the user wrote it, "Regenerate" and the version pager
 * (U331) on the last reply shown after it. A turn still running offers neither.
 */
import type { DeletedMessages } from '../../core/agent/delete-messages';
import {
  versionPosition,
  type DeletedVersion,
  type VersionPosition,
} from '../../core/agent/reply-versions';
import {
  conversationOf,
  type Message,
  type MessageId,
  type TurnId,
  type TurnRecord,
} from '../../core/model';
import { isReply } from './chat-items';

export interface LatestTurn {
  turnId: TurnId;
  /** The message the turn answers (the user's, or an event's). */
  trigger: Message;
  /** The user message "Edit" is offered on; null when the trigger is not the user's. */
  editId: MessageId | null;
  /** The reply "Regenerate" is offered on; null when the turn has no reply. */
  regenerateId: MessageId | null;
  /** Where that reply's shown version stands (U331); null when it has no other version. */
  versions: VersionPosition | null;
}

/** The newest turn record (by start time; the id breaks a tie). */
export function newestTurn(turns: Readonly<Record<TurnId, TurnRecord>>): TurnRecord | undefined {
  let newest: TurnRecord | undefined;
  for (const turn of Object.values(turns)) {
    if (
      !newest ||
      turn.startedAt > newest.startedAt ||
      (turn.startedAt === newest.startedAt && turn.id > newest.id)
    )
      newest = turn;
  }
  return newest;
}

/** The latest turn and what it offers, or null when there is none to act on. */
export function latestTurn(
  messages: readonly Message[],
  turns: Readonly<Record<TurnId, TurnRecord>>,
): LatestTurn | null {
  const turn = newestTurn(turns);
  if (!turn || turn.status === 'running') return null;
  const trigger = messages.find((m) => m.id === turn.triggerMessageId);
  if (!trigger) return null;
  const after = messages.filter(
    (m) => m.seq > trigger.seq && conversationOf(m) === conversationOf(trigger),
  );
  let regenerateId: MessageId | null = null;
  for (const m of after) {
    // The version shown may be an earlier turn's (U331): any turn that answered this trigger.
    const answered = m.turnId !== undefined && turns[m.turnId]?.triggerMessageId === trigger.id;
    if (answered && isReply(m)) regenerateId = m.id;
  }
  return {
    turnId: turn.id,
    trigger,
    editId: trigger.role === 'user' ? trigger.id : null,
    regenerateId,
    versions: regenerateId === null ? null : versionPosition(trigger, after),
  };
}

/** A delete that "Undo" can still take back (U185). */
export interface UndoableDelete {
  deleted: DeletedMessages;
  /** Some of it had left the context window: the summary may still mention it (ADR 0143). */
  summarised: boolean;
  /** Set when the delete was of a reply's shown version, another taking its place (U331). */
  version?: DeletedVersion;
}
