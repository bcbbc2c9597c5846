/**
 * Scores one conversation (V3–V10): replays it into a fresh agent, asks every non-adversarial
 * question in each search mode (as `conversation_search` does: `MemorySearch.search` over
 * recall messages of both sides) and through each strategy at each budget, and records the
 * outcomes in a {@link RecallTally}. Shared by `npm run eval:memory` and the in-app memory check.
 */
import type { Agent, StrategyName } from '../core/model';
import type { MemorySearch, SearchMode } from '../core/ports/memory-search';
import type { Tokens } from '../core/units';
import { ADVERSARIAL_CATEGORY, CATEGORY_NAMES, type EvalConversation } from './eval-dataset';
import { evidenceInPrompt } from './evidence-in-prompt';
import { evidenceRanks, foundWithin } from './evidence-ranks';
import { prepareContext, questionPrompt, type ContextEvalSetup } from './question-context';
import type { RecallTally } from './recall-tally';
import { replayConversation, type ReplayDeps, type ReplayProgress } from './replay-conversation';
import type { ToolSpec } from '../core/tools/tool';

export interface EvalPlan {
  modes: readonly SearchMode[];
  ks: readonly number[];
  strategies: readonly StrategyName[];
  budgets: readonly Tokens[];
}

export interface EvaluateDeps extends ReplayDeps {
  tools: readonly ToolSpec[];
  onProgress?: (stage: string, done: number, total: number) => void;
}

/** Figure keys of the tally. */
export const retrievalFigure = (mode: SearchMode, rule: 'any' | 'all', k: number): string =>
  `retrieval.${mode}.${rule}@${k}`;
export const contextFigure = (
  strategy: StrategyName,
  budget: Tokens,
  rule: 'any' | 'all',
): string => `context.${strategy}.${budget}.${rule}`;

/** Per-conversation counts beside the tally. */
export interface ConversationSummary {
  id: string;
  turns: number;
  questions: number;
  /** Non-adversarial questions whose evidence names no turn of the conversation. */
  skipped: number;
  /** Strategy/budget → planner problems (prompts that could not be built). */
  problems: Record<string, number>;
  /** Strategy/budget → flushes during the replay (memgpt). */
  flushes: Record<string, number>;
}

/** Whether a question is scored: not adversarial, and its evidence names known turns (V4). */
export function scoredQuestion(
  conversation: EvalConversation,
  question: EvalConversation['questions'][number],
): boolean {
  if (question.category === ADVERSARIAL_CATEGORY) return false;
  const known = new Set(conversation.turns.map((t) => t.id));
  return question.evidence.some((id) => known.has(id));
}

type EvalQuestion = EvalConversation['questions'][number];

/** A conversation's scored questions (not adversarial, with known evidence) and its summary row. */
export function scoredQuestions(conversation: EvalConversation): {
  known: Set<string>;
  questions: EvalQuestion[];
  summary: ConversationSummary;
} {
  const known = new Set(conversation.turns.map((t) => t.id));
  const nonAdversarial = conversation.questions.filter((q) => q.category !== ADVERSARIAL_CATEGORY);
  const questions = nonAdversarial.filter((q) => scoredQuestion(conversation, q));
  const summary: ConversationSummary = {
    id: conversation.id,
    turns: conversation.turns.length,
    questions: questions.length,
    skipped: nonAdversarial.length - questions.length,
    problems: {},
    flushes: {},
  };
  return { known, questions, summary };
}

/** The question's category as the tables name it. */
export const categoryName = (c: number): string => CATEGORY_NAMES[c] ?? `category_${c}`;

/**
 * Retrieval recall@k of one conversation (V7): each question searched in each mode, its hits
 * mapped to dataset turns, tallied per k for "any" and "all" evidence. The side and the live
 * path share it.
 */
export async function tallyRetrieval(input: {
  search: MemorySearch;
  agentId: string;
  questions: readonly EvalQuestion[];
  known: ReadonlySet<string>;
  turnOfMessage: ReadonlyMap<string, string>;
  plan: Pick<EvalPlan, 'modes' | 'ks'>;
  tally: RecallTally;
  progress?: (stage: string, done: number, total: number) => void;
}): Promise<void> {
  const { plan, questions } = input;
  const depth = Math.max(...plan.ks, 1);
  for (const mode of plan.modes) {
    for (const [i, q] of questions.entries()) {
      const page = await input.search.search({
        agentId: input.agentId,
        text: q.question,
        kinds: ['message'],
        mode,
        page: 1,
        pageSize: depth,
        roles: ['user', 'assistant'],
      });
      const ranked = page.hits.map((h) => input.turnOfMessage.get(h.id) ?? h.id);
      const ranks = evidenceRanks(
        ranked,
        q.evidence.filter((id) => input.known.has(id)),
      );
      for (const k of plan.ks) {
        for (const rule of ['any', 'all'] as const) {
          input.tally.add(
            retrievalFigure(mode, rule, k),
            categoryName(q.category),
            foundWithin(ranks, k, rule),
          );
        }
      }
      input.progress?.(`retrieval ${mode}`, i + 1, questions.length);
    }
  }
}

export async function evaluateConversation(
  conversation: EvalConversation,
  agent: Agent,
  plan: EvalPlan,
  deps: EvaluateDeps,
  tally: RecallTally,
): Promise<ConversationSummary> {
  const progress = deps.onProgress;
  const replayProgress: ReplayProgress = (done, total) => progress?.('replay', done, total);
  const replayed = await replayConversation(conversation, agent, deps, replayProgress);
  const { known, questions, summary } = scoredQuestions(conversation);
  const category = categoryName;

  await tallyRetrieval({
    search: deps.search,
    agentId: agent.id,
    questions,
    known,
    turnOfMessage: replayed.turnOfMessage,
    plan,
    tally,
    ...(progress ? { progress } : {}),
  });

  const setup: ContextEvalSetup = {
    agent,
    messages: replayed.messages,
    tokenizer: deps.tokenizer,
    search: deps.search,
    tools: deps.tools,
  };
  for (const strategy of plan.strategies) {
    for (const budget of plan.budgets) {
      const key = `${strategy}.${budget}`;
      const prepared = await prepareContext(setup, strategy, budget);
      summary.flushes[key] = prepared.flushes;
      for (const [i, q] of questions.entries()) {
        const texts = q.evidence
          .map((id) => replayed.messageOfTurn.get(id)?.text)
          .filter((t): t is string => t !== undefined);
        const built = await questionPrompt(prepared, setup, q.question);
        if (built.problem) summary.problems[key] = (summary.problems[key] ?? 0) + 1;
        const found = evidenceInPrompt(built.prompt, texts);
        tally.add(contextFigure(strategy, budget, 'any'), category(q.category), found.any);
        tally.add(contextFigure(strategy, budget, 'all'), category(q.category), found.all);
        progress?.(`context ${key}`, i + 1, questions.length);
      }
    }
  }
  return summary;
}
