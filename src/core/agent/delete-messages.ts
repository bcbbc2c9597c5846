/**
 * Deleting chat messages and undoing it (ADR 0143): the store rows, the search indexes and the
 * context queue change together. The queue needs no step of its own: each turn reads the window
 * as the store's in-context messages, so a deleted row has left it and a restored one (with its
 * `inContext` flag) is back in it.
 */
import { AppError } from '../errors';
import {
  conversationOf,
  type AgentId,
  type Message,
  type MessageId,
  type StepRecord,
  type TurnRecord,
} from '../model';
import type { MemorySearch } from '../ports/memory-search';
import type { MemoryStore } from '../ports/memory-store';

export interface DeleteMessagesDeps {
  store: Pick<MemoryStore, 'deleteMessages' | 'restoreMessages' | 'getConversation'>;
  search: Pick<MemorySearch, 'removeMessages' | 'indexMessages'>;
}

/**
 * What Undo needs: the deleted rows, whole — the messages, and the turns they triggered with
 * their steps (S40).
 */
export interface DeletedMessages {
  agentId: AgentId;
  messages: Message[];
  turns: TurnRecord[];
  steps: StepRecord[];
}

export async function deleteMessages(
  deps: DeleteMessagesDeps,
  agentId: AgentId,
  ids: MessageId[],
): Promise<DeletedMessages> {
  const removed = await deps.store.deleteMessages(ids);
  const mine = removed.messages.filter((m) => m.agentId === agentId);
  await deps.search.removeMessages(
    agentId,
    mine.map((m) => m.id),
  );
  return {
    agentId,
    messages: mine,
    turns: removed.turns.filter((t) => t.agentId === agentId),
    steps: removed.steps.filter((x) => x.agentId === agentId),
  };
}

/**
 * Undo: the rows come back whole and searchable. Refuses with `not_found`, writing nothing, when
 * a message's chat was deleted since (S42): a message in no chat would be invisible, and a backup
 * holding it would be refused on import. The caller holds the agent's lock, as a chat delete does.
 */
export async function restoreMessages(
  deps: DeleteMessagesDeps,
  deleted: DeletedMessages,
): Promise<void> {
  for (const id of new Set(deleted.messages.map(conversationOf))) {
    if (!(await deps.store.getConversation(id))) {
      throw new AppError(
        'not_found',
        'The chat this message was in has been deleted, so the message cannot come back.',
        { conversationId: id },
      );
    }
  }
  await deps.store.restoreMessages({
    messages: deleted.messages,
    turns: deleted.turns,
    steps: deleted.steps,
  });
  await deps.search.indexMessages(deleted.messages);
}
