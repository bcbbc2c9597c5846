/**
 * What one run of the memory evaluation measures and how its tally is keyed (V4–V8): the plan
 * (modes, ks, strategies, budgets), the figure keys, which questions are scored, and retrieval
 * recall@k. The live path (`evaluateLive`) and the in-app memory check share them.
 */
import type { StrategyName } from '../core/model';
import type { MemorySearch, SearchMode } from '../core/ports/memory-search';
import type { Tokens } from '../core/units';
import { ADVERSARIAL_CATEGORY, CATEGORY_NAMES, type EvalConversation } from './eval-dataset';
import { evidenceRanks, foundWithin } from './evidence-ranks';
import type { RecallTally } from './recall-tally';

export interface EvalPlan {
  modes: readonly SearchMode[];
  ks: readonly number[];
  strategies: readonly StrategyName[];
  budgets: readonly Tokens[];
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
  /** Strategy/budget → flushes during the replay. */
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
 * mapped to dataset turns, tallied per k for "any" and "all" evidence.
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
