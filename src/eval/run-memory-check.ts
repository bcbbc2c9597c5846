/**
 * The in-app memory check (V12, V13): replays the built-in probe conversation into a temporary
 * agent, with whatever embedder the caller's search uses (the user's real model in the app),
 * scores recall@k per search mode and context recall for one strategy, and deletes the
 * temporary agent afterwards — also when the check fails half way (V14: one left behind by a
 * closed tab is swept on the next start, and never listed among the user's agents).
 */
import { createAgentRecord } from '../core/agent/create-agent-record';
import type { StrategyName } from '../core/model';
import type { Clock, IdSource } from '../core/ports/clock';
import type { MemorySearch, SearchMode } from '../core/ports/memory-search';
import type { MemoryStore } from '../core/ports/memory-store';
import type { Tokenizer } from '../core/ports/tokenizer';
import type { TurnLock } from '../core/ports/turn-lock';
import type { ToolSpec } from '../core/tools/tool';
import type { Tokens } from '../core/units';
import { contextFigure, evaluateConversation, retrievalFigure } from './evaluate-conversation';
import { probeConversation } from './probe-conversation';
import { RecallTally } from './recall-tally';

export interface MemoryCheckDeps {
  store: MemoryStore;
  /** A search of its own: the check must not switch the app's search to its temporary agent. */
  createSearch: () => MemorySearch;
  tokenizer: Tokenizer;
  clock: Clock;
  ids: IdSource;
  tools: readonly ToolSpec[];
  /** The strategy whose context recall is measured (the agent's). */
  strategy: StrategyName;
  /** Modes to score; leave `vector` and `hybrid` out when there is no embedder. */
  modes?: readonly SearchMode[];
  ks?: readonly number[];
  budget?: Tokens;
  onProgress?: (stage: string, done: number, total: number) => void;
  /**
   * Held on the temporary agent while the check runs, so another tab's sweep
   * ({@link sweepMemoryCheckAgents}) leaves a running check alone.
   */
  lock?: TurnLock;
}

export interface MemoryCheckResult {
  questions: number;
  turns: number;
  /** mode → k → recall (any evidence turn). */
  retrieval: Partial<Record<SearchMode, Record<number, number>>>;
  context: { strategy: StrategyName; budget: Tokens; any: number; all: number };
}

export const MEMORY_CHECK_KS: readonly number[] = [1, 3, 5];
/** The id prefix of the check's temporary agents. */
export const MEMORY_CHECK_ID_PREFIX = 'memory-check';

/** Whether an agent is a memory check's temporary agent (never shown as the user's). */
export function isMemoryCheckAgent(agentId: string): boolean {
  return agentId.startsWith(MEMORY_CHECK_ID_PREFIX);
}

/**
 * Deletes temporary agents that a closed tab left behind (V14): each one whose lock can be taken,
 * i.e. no tab is running that check now. Resolves with how many were deleted.
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

/** Runs the check; the temporary agent is gone when the promise settles. */
export async function runMemoryCheck(deps: MemoryCheckDeps): Promise<MemoryCheckResult> {
  const conversation = probeConversation();
  const modes = deps.modes ?? ['lexical', 'vector', 'hybrid'];
  const ks = deps.ks ?? MEMORY_CHECK_KS;
  const budget = deps.budget ?? MEMORY_CHECK_BUDGET;
  const { agent } = createAgentRecord({
    id: deps.ids.next(MEMORY_CHECK_ID_PREFIX),
    name: 'Memory check',
    now: deps.clock.now(),
  });
  const tally = new RecallTally();
  const search = deps.createSearch();
  const release = deps.lock ? await deps.lock.acquire(agent.id) : null;
  try {
    const summary = await evaluateConversation(
      conversation,
      agent,
      { modes, ks, strategies: [deps.strategy], budgets: [budget] },
      { ...deps, search },
      tally,
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
  } finally {
    try {
      await deps.store.deleteAgent(agent.id);
    } finally {
      await release?.();
    }
  }
}
