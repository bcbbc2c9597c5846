/**
 * Crash recovery (A15, A17): on open, turns still `running` were cut off by a crash or reload;
 * they become `interrupted` (every committed step stays, nothing is half-applied because each
 * step is one transaction). `retryTurn` runs a new turn from the interrupted one's trigger.
 */
import type { AgentId, TurnRecord } from '../model';
import type { Clock } from '../ports/clock';
import type { MemoryStore } from '../ports/memory-store';
import type { AgentDeps } from './agent-deps';
import { runTurn, type RunTurnOptions } from './run-turn';
import type { TurnOutcome } from './turn-events';

/**
 * Marks the agent's `running` turns `interrupted` (A15) and returns them. Call on open while
 * holding the agent's TurnLock, before any new turn.
 */
export async function recoverInterruptedTurns(
  store: MemoryStore,
  agentId: AgentId,
  clock?: Clock,
): Promise<TurnRecord[]> {
  const running = await store.listTurns(agentId, 'running');
  if (running.length === 0) return [];
  const interrupted = running.map((turn): TurnRecord => ({
    ...turn,
    status: 'interrupted',
    ...(clock ? { endedAt: clock.now() } : {}),
  }));
  await store.apply({ turns: interrupted });
  return interrupted;
}

/** Runs a new turn from an interrupted turn's trigger message (A17). */
export function retryTurn(
  deps: AgentDeps,
  agentId: AgentId,
  turnId: string,
  options?: RunTurnOptions,
): Promise<TurnOutcome> {
  return runTurn(deps, agentId, { type: 'retry', turnId }, options);
}
