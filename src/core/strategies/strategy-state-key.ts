/**
 * The setting key under which a caller of `planContext` persists a strategy's state between
 * rounds (`plan.strategyState` → `MemoryStore.setSetting`, then `strategyState` on the next
 * plan). Only `forgetting` keeps state today; without persistence it starts empty every turn
 * and never forgets anything older than one round.
 *
 * The state describes one conversation's queue (memgpt's kept memories, the forgetting
 * containers), so each conversation has its own key; the agent's first conversation keeps the
 * key it had before conversations existed (A22, ADR 0152).
 */
import {
  defaultConversationId,
  type AgentId,
  type ConversationId,
  type StrategyName,
} from '../model';

/** `strategy:<name>:<agentId>`, then `:<conversationId>` for any but the first conversation. */
export function strategyStateKey(
  agentId: AgentId,
  name: StrategyName,
  conversationId?: ConversationId,
): string {
  const base = `strategy:${name}:${agentId}`;
  return conversationId === undefined || conversationId === defaultConversationId(agentId)
    ? base
    : `${base}:${conversationId}`;
}
