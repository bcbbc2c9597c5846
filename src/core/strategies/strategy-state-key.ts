/**
 * The setting key under which a caller of `planContext` persists a strategy's state between
 * rounds (`plan.strategyState` → `MemoryStore.setSetting`, then `strategyState` on the next
 * plan). Only `forgetting` keeps state today; without persistence it starts empty every turn
 * and never forgets anything older than one round.
 */
import type { AgentId, StrategyName } from '../model';

/** `strategy:<name>:<agentId>`. */
export function strategyStateKey(agentId: AgentId, name: StrategyName): string {
  return `strategy:${name}:${agentId}`;
}
