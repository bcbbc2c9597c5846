/**
 * Deleting a conversation and undoing it (A24): the store removes the conversation with its
 * messages and summaries in one transaction, and recall search forgets those messages, so
 * neither `conversation_search` nor automatic recall in another conversation finds them. Undo
 * puts the same rows back and indexes them again. Core and archival memory (the agent's) stay.
 */
import type { ConversationId } from '../model';
import type { MemorySearch } from '../ports/memory-search';
import type { DeletedConversation, MemoryStore } from '../ports/memory-store';

export interface DeleteConversationDeps {
  store: Pick<MemoryStore, 'deleteConversation' | 'restoreConversation'>;
  search: Pick<MemorySearch, 'removeMessages' | 'indexMessages'>;
}

/** Deletes the conversation and drops its messages from search; resolves with what Undo needs. */
export async function deleteConversation(
  deps: DeleteConversationDeps,
  id: ConversationId,
): Promise<DeletedConversation> {
  const deleted = await deps.store.deleteConversation(id);
  await deps.search.removeMessages(
    deleted.conversation.agentId,
    deleted.messages.map((m) => m.id),
  );
  return deleted;
}

/** Undo: the rows come back as they were, and search finds their messages again. */
export async function restoreConversation(
  deps: DeleteConversationDeps,
  deleted: DeletedConversation,
): Promise<void> {
  await deps.store.restoreConversation(deleted);
  await deps.search.indexMessages(deleted.messages);
}
