/**
 * Which conversation a turn runs in (A22, ADR 0152): the one the caller names, else the agent's
 * most recently updated conversation, else its first (a new agent has none yet; the first
 * message creates it). A retry runs where its trigger message is.
 */
import { AppError } from '../errors';
import {
  conversationOf,
  defaultConversationId,
  type AgentId,
  type Conversation,
  type ConversationId,
  type Message,
} from '../model';
import type { MemoryStore } from '../ports/memory-store';
import { conversationLabel } from '../prompts/render-context';

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

/**
 * How a recalled message names its conversation in the prompt, or undefined when the agent has
 * one conversation (the line then reads as it did before conversations, A23).
 */
export function conversationNamer(
  conversations: readonly Conversation[],
  current: ConversationId,
): ((message: Message) => string) | undefined {
  if (conversations.length <= 1) return undefined;
  const titles = new Map(conversations.map((c) => [c.id, c.title]));
  return (message) => {
    const id = conversationOf(message);
    return conversationLabel(id === current ? null : titles.get(id));
  };
}
