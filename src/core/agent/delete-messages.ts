/**
 * Deleting chat messages and undoing it (ADR 0143): the store rows, the search indexes and the
 * context queue change together. The queue needs no step of its own: each turn reads the window
 * as the store's in-context messages, so a deleted row has left it and a restored one (with its
 * `inContext` flag) is back in it.
 */
import type { AgentId, Message, MessageId } from '../model';
import type { MemorySearch } from '../ports/memory-search';
import type { MemoryStore } from '../ports/memory-store';

export interface DeleteMessagesDeps {
  store: Pick<MemoryStore, 'deleteMessages' | 'restoreMessages'>;
  search: Pick<MemorySearch, 'removeMessages' | 'indexMessages'>;
}

/** What Undo needs: the deleted rows, whole. */
export interface DeletedMessages {
  agentId: AgentId;
  messages: Message[];
}

export async function deleteMessages(
  deps: DeleteMessagesDeps,
  agentId: AgentId,
  ids: MessageId[],
): Promise<DeletedMessages> {
  const removed = await deps.store.deleteMessages(ids);
  const mine = removed.filter((m) => m.agentId === agentId);
  await deps.search.removeMessages(
    agentId,
    mine.map((m) => m.id),
  );
  return { agentId, messages: mine };
}

export async function restoreMessages(
  deps: DeleteMessagesDeps,
  deleted: DeletedMessages,
): Promise<void> {
  await deps.store.restoreMessages(deleted.messages);
  await deps.search.indexMessages(deleted.messages);
}
