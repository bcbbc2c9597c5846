/**
 * Which conversation a turn runs in (A22, ADR 0152): the one the caller names, else the agent's
 * most recently updated conversation, else its first (a new agent has none yet; the first
 * message creates it). A retry runs where its trigger message is.
 */
import { AppError } from '../errors';
import { defaultConversationId, type AgentId, type ConversationId } from '../model';
import type { MemoryStore } from '../ports/memory-store';

/** The conversation a turn without a named one continues: the most recent one. */
export async function currentConversation(
  store: Pick<MemoryStore, 'listConversations'>,
  agentId: AgentId,
): Promise<ConversationId> {
  const [latest] = await store.listConversations(agentId);
  return latest?.id ?? defaultConversationId(agentId);
}

/**
 * The conversation a turn of `agentId` runs in. A named conversation must be the agent's (or its
 * first one, which the first message creates); another agent's or an unknown one is `not_found`.
 */
export async function turnConversation(
  store: Pick<MemoryStore, 'listConversations' | 'getConversation'>,
  agentId: AgentId,
  requested: ConversationId | undefined,
): Promise<ConversationId> {
  if (requested === undefined) return currentConversation(store, agentId);
  if (requested === defaultConversationId(agentId)) return requested;
  const found = await store.getConversation(requested);
  if (!found || found.agentId !== agentId)
    throw new AppError('not_found', `Agent ${agentId} has no conversation ${requested}.`);
  return requested;
}
