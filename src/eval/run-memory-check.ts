/**
 * The in-app memory check (V12, V13): the built-in probe conversation through the live path, as
 * `npm run eval:memory` runs a LoCoMo file (V28–V30) — replayed through `runTurn` into a world of
 * its own (a fresh store and a search with whatever embedder the caller's search uses: the user's
 * real model in the app), each question asked on a copy of that state — scoring recall@k per
 * search mode and the context recall of one strategy. Nothing of the user's store is read or
 * written (V14); the world is dropped afterwards.
 */
import type { StrategyName } from '../core/model';
import type { IdSource } from '../core/ports/clock';
import type { SearchMode } from '../core/ports/memory-search';
import type { MemoryStore } from '../core/ports/memory-store';
import type { Tokenizer } from '../core/ports/tokenizer';
import type { TurnLock } from '../core/ports/turn-lock';
import type { Tokens } from '../core/units';
import { contextFigure, retrievalFigure } from './eval-plan';
import { evaluateLive } from './evaluate-live';
import type { LiveWorld } from './live-replay';
import { probeConversation } from './probe-conversation';
import { RecallTally } from './recall-tally';
import { createReplayEngine } from './replay-engine';

export interface MemoryCheckDeps {
  /**
   * A fresh, empty world: a store of the check's own and a search over it with the user's
   * embedder. Never the user's store: the replay writes an agent and the display name.
   */
  createWorld(): Promise<LiveWorld>;
  /** A copy of `world` each question can change without changing `world` (V30). */
  forkWorld(world: LiveWorld): Promise<LiveWorld>;
  tokenizer: Tokenizer;
  ids: IdSource;
  /** The strategy whose context recall is measured (the agent's). */
  strategy: StrategyName;
  /** Modes to score; leave `vector` and `hybrid` out when there is no embedder. */
  modes?: readonly SearchMode[];
  ks?: readonly number[];
  budget?: Tokens;
  onProgress?: (stage: string, done: number, total: number) => void;
}

export interface MemoryCheckResult {
  questions: number;
  turns: number;
  /** mode → k → recall (any evidence turn). */
  retrieval: Partial<Record<SearchMode, Record<number, number>>>;
  context: { strategy: StrategyName; budget: Tokens; any: number; all: number };
}

export const MEMORY_CHECK_KS: readonly number[] = [1, 3, 5];
/** The id prefix of the temporary agents earlier versions of the check wrote to the user's store. */
export const MEMORY_CHECK_ID_PREFIX = 'memory-check';

/** Whether an agent is such a temporary agent (never shown as the user's). */
export function isMemoryCheckAgent(agentId: string): boolean {
  return agentId.startsWith(MEMORY_CHECK_ID_PREFIX);
}

/**
 * Deletes the temporary agents an earlier version of the check left in the user's store when its
 * tab closed mid-check (V14): each one whose lock can be taken, i.e. no tab (an older version
 * still open) is running that check now. Resolves with how many were deleted.
 */
export async function sweepMemoryCheckAgents(store: MemoryStore, lock: TurnLock): Promise<number> {
  let deleted = 0;
  for (const agent of await store.listAgents()) {
    if (!isMemoryCheckAgent(agent.id)) continue;
    const release = await lock.acquire(agent.id);
    if (!release) continue;
    try {
      await store.deleteAgent(agent.id);
      deleted += 1;
    } finally {
      await release();
    }
  }
  return deleted;
}

/** A small budget: the probe is ~1,300 tokens, so recall is tested, not just the window. */
export const MEMORY_CHECK_BUDGET: Tokens = 600;

/** Runs the check in a world of its own (V13). */
export async function runMemoryCheck(deps: MemoryCheckDeps): Promise<MemoryCheckResult> {
  const modes = deps.modes ?? ['lexical', 'vector', 'hybrid'];
  const ks = deps.ks ?? MEMORY_CHECK_KS;
  const budget = deps.budget ?? MEMORY_CHECK_BUDGET;
  const tally = new RecallTally();
  const summary = await evaluateLive(
    probeConversation(),
    { modes, ks, strategies: [deps.strategy], budgets: [budget] },
    {
      createWorld: deps.createWorld,
      forkWorld: deps.forkWorld,
      createEngine: (window, answer) =>
        createReplayEngine({ window, tokenizer: deps.tokenizer, answer }),
      tokenizer: deps.tokenizer,
      ids: deps.ids,
      ...(deps.onProgress ? { onProgress: deps.onProgress } : {}),
    },
    tally,
    new Map(),
  );
  const retrieval: MemoryCheckResult['retrieval'] = {};
  for (const mode of modes) {
    const row: Record<number, number> = {};
    for (const k of ks) row[k] = tally.recall(retrievalFigure(mode, 'any', k));
    retrieval[mode] = row;
  }
  return {
    questions: summary.questions,
    turns: summary.turns,
    retrieval,
    context: {
      strategy: deps.strategy,
      budget,
      any: tally.recall(contextFigure(deps.strategy, budget, 'any')),
      all: tally.recall(contextFigure(deps.strategy, budget, 'all')),
    },
  };
}
