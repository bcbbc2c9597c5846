/**
 * The context bar's plan across reloads (U293): the last plan a turn of a conversation used is
 * kept in the store's settings, without its prompt text and strategy state (the messages are in
 * the store already, and a plan of a 32-turn chat is then a few kilobytes), and shown again when
 * the conversation is opened, until the next turn plans a new one.
 */
import { currentConversation } from '../../core/agent/turn-conversation';
import type { ContextPlan } from '../../core/context/plan-context';
import {
  conversationOf,
  type AgentId,
  type ConversationId,
  type MessageId,
} from '../../core/model';
import type { MemoryStore } from '../../core/ports/memory-store';

/** A plan as stored: everything the context bar and memory panel show, not the prompt. */
export type StoredPlan = Omit<ContextPlan, 'prompt' | 'strategyState' | 'turnTokens'>;

type PlanStore = Pick<
  MemoryStore,
  'getMessages' | 'getSetting' | 'setSetting' | 'listConversations'
>;

/** The settings key of a conversation's last plan. */
export function lastPlanKey(agentId: AgentId, conversationId: ConversationId): string {
  return `chat.lastPlan:${agentId}:${conversationId}`;
}

/** What is stored of `plan`. */
export function storedPlan(plan: ContextPlan): StoredPlan {
  const { prompt: _prompt, strategyState: _state, turnTokens: _turns, ...kept } = plan;
  return kept;
}

/** A stored plan back as a plan with an empty prompt, or null when `value` is not one. */
export function restoredPlan(value: unknown): ContextPlan | null {
  if (typeof value !== 'object' || value === null) return null;
  const plan = value as Partial<StoredPlan>;
  const valid =
    typeof plan.window === 'number' &&
    typeof plan.total === 'number' &&
    typeof plan.sections === 'object' &&
    plan.sections !== null &&
    Array.isArray(plan.messages) &&
    Array.isArray(plan.memories) &&
    Array.isArray(plan.messageIds) &&
    Array.isArray(plan.evictableIds);
  return valid ? { ...(plan as StoredPlan), prompt: [] } : null;
}

/** Keeps `plan` as the last plan of the conversation the turn triggered by `triggerId` ran in. */
export async function keepLastPlan(
  store: PlanStore,
  agentId: AgentId,
  triggerId: MessageId,
  plan: ContextPlan,
): Promise<void> {
  const [trigger] = await store.getMessages([triggerId]);
  const conversationId = trigger
    ? conversationOf(trigger)
    : await currentConversation(store, agentId);
  await store.setSetting(lastPlanKey(agentId, conversationId), storedPlan(plan));
}

/** The last plan of a conversation (null: the agent's most recent one), or null when none. */
export async function readLastPlan(
  store: PlanStore,
  agentId: AgentId,
  conversationId: ConversationId | null,
): Promise<ContextPlan | null> {
  const id = conversationId ?? (await currentConversation(store, agentId));
  return restoredPlan(await store.getSetting<unknown>(lastPlanKey(agentId, id)));
}
