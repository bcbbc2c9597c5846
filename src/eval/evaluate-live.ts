/**
 * Scores one conversation on the live path (V28–V31): replays it through the turn loop once per
 * strategy and budget ({@link replayLive}), scores `conversation_search` in each mode on the
 * first replay's store (search does not depend on the strategy), asks every scored question on a
 * fork of each replay ({@link askOnFork}) and reads context recall from its first planned
 * prompt, and keeps each replay's turn-cost meter for the `cost` table and how many evicted
 * evidence turns its summary still holds (V39).
 */
import type { StrategyName } from '../core/model';
import type { Tokens } from '../core/units';
import type { EvalConversation } from './eval-dataset';
import {
  contextFigure,
  categoryName,
  scoredQuestions,
  tallyRetrieval,
  type ConversationSummary,
  type EvalPlan,
} from './eval-plan';
import { evidenceInPrompt } from './evidence-in-prompt';
import { askOnFork, replayLive, type LiveReplayDeps } from './live-replay';
import type { RecallTally } from './recall-tally';
import { evidenceInSummary, summaryState } from './summary-evidence';
import type { MeteredTurn } from './turn-cost/turn-cost-meter';
import type { EpochMs } from '../core/units';

export interface LiveEvaluateDeps extends LiveReplayDeps {
  onProgress?: (stage: string, done: number, total: number) => void;
}

/** Metered turns and flushes of one strategy at one budget, gathered over conversations. */
export interface CostRecord {
  turns: MeteredTurn[];
  flushes: number;
  /** The largest prompt a replay allowed: its window less the reply reserve (V37). */
  promptLimit: Tokens;
  /** Replayed turns, and those whose first prompt carried a memory-pressure alert (V38). */
  turnCount: number;
  warnedTurns: number;
  /** Recalled memory in each question's first planned prompt: tokens and lines (V38). */
  memoryTokens: Tokens[];
  memoryLines: number[];
  /**
   * Evidence turns of scored questions that the queue had evicted when the questions were asked,
   * and those of them still in the summary's text (V39).
   */
  evictedEvidence: number;
  keptEvidence: number;
}

/** An empty record for one strategy at one budget. */
export function emptyCostRecord(): CostRecord {
  return {
    turns: [],
    flushes: 0,
    promptLimit: 0,
    turnCount: 0,
    warnedTurns: 0,
    memoryTokens: [],
    memoryLines: [],
    evictedEvidence: 0,
    keptEvidence: 0,
  };
}

/** The context strategies the eval replays, in report order (V33). */
export const EVAL_STRATEGIES: readonly StrategyName[] = [
  'memgpt',
  'forgetting',
  'recency',
  'window',
];

export const costKey = (strategy: StrategyName, budget: Tokens): string => `${strategy}.${budget}`;

export async function evaluateLive(
  conversation: EvalConversation,
  plan: EvalPlan,
  deps: LiveEvaluateDeps,
  tally: RecallTally,
  costs: Map<string, CostRecord>,
): Promise<ConversationSummary> {
  const progress = deps.onProgress;
  const { known, questions, summary } = scoredQuestions(conversation);
  const category = categoryName;
  const textOf = new Map(conversation.turns.map((t) => [t.id, t.text]));
  const last = conversation.turns[conversation.turns.length - 1];
  const askedAt = ((last?.at ?? 0) + 60_000) as EpochMs;
  let searched = false;

  for (const strategy of plan.strategies) {
    for (const budget of plan.budgets) {
      const key = costKey(strategy, budget);
      const replay = await replayLive(conversation, strategy, budget, deps, (done, total) =>
        progress?.(`replay ${key}`, done, total),
      );
      summary.flushes[key] = replay.flushes;
      for (const [reason, n] of Object.entries(replay.problems)) {
        summary.problems[`${key} replay ${reason}`] = n;
      }
      const cost: CostRecord = costs.get(key) ?? emptyCostRecord();
      cost.turns.push(...(replay.meter?.turns ?? []));
      cost.flushes += replay.flushes;
      cost.turnCount += replay.turns;
      cost.warnedTurns += replay.warnedTurns;
      cost.promptLimit = Math.max(
        cost.promptLimit,
        replay.window - replay.agent.budgets.replyReserve,
      );
      costs.set(key, cost);

      if (!searched) {
        searched = true;
        await tallyRetrieval({
          search: replay.world.search,
          agentId: replay.agent.id,
          questions,
          known,
          turnOfMessage: replay.turnOfMessage,
          plan,
          tally,
          ...(progress ? { progress } : {}),
        });
      }

      const state = await summaryState(replay.world.store, replay.agent);
      for (const q of questions) {
        for (const id of q.evidence) {
          const message = replay.messageOfTurn.get(id);
          if (!message || !state.evicted.has(message.id)) continue;
          cost.evictedEvidence += 1;
          if (evidenceInSummary(state.text, textOf.get(id) ?? '')) cost.keptEvidence += 1;
        }
      }

      for (const [i, q] of questions.entries()) {
        const texts = q.evidence
          .map((id) => textOf.get(id))
          .filter((t): t is string => t !== undefined);
        const asked = await askOnFork(replay, q.question, deps, askedAt);
        if (asked.problem) summary.problems[key] = (summary.problems[key] ?? 0) + 1;
        else {
          cost.memoryTokens.push(asked.memoryTokens ?? 0);
          cost.memoryLines.push(asked.memoryLines ?? 0);
        }
        const found = evidenceInPrompt(asked.prompt, texts);
        tally.add(contextFigure(strategy, budget, 'any'), category(q.category), found.any);
        tally.add(contextFigure(strategy, budget, 'all'), category(q.category), found.all);
        progress?.(`context ${key}`, i + 1, questions.length);
      }
    }
  }
  return summary;
}
