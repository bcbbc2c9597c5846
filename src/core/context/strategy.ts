/**
 * One interface for every context strategy (`memgpt`, `forgetting`, `recency`, `window`). A
 * strategy chooses what fills the dynamic part of the prompt — messages and extra memory
 * items — within the token budget `planContext` leaves after the fixed sections (system, tools,
 * core blocks, summary, reply reserve). It never exceeds `budget`.
 */
import type { Agent, Message, StrategyName } from '../model';
import type { ContextMemory } from '../prompts/context-memory';
import type { Tokenizer } from '../ports/tokenizer';
import type { EpochMs, Tokens } from '../units';

export type { ContextMemory } from '../prompts/context-memory';

export interface StrategyInput {
  agent: Agent;
  /** The messages the strategy may draw from, oldest first; the last is the newest user message. */
  history: readonly Message[];
  /** The text the next reply answers (the newest user message, or an event). */
  query: string;
  /** Tokens available for `messages` + `memories` together. */
  budget: Tokens;
  tokenizer: Tokenizer;
  /** The strategy's own persisted state from the previous round, if any. */
  state: unknown;
  now: EpochMs;
  /**
   * Memories found by automatic recall for this turn, best first, already rendered as one line
   * each (the `memgpt` strategy fills its memories section from these within
   * `agent.budgets.recallBudget`; other strategies may ignore them).
   */
  candidates?: readonly ContextMemory[];
  /** Counts one message as it is rendered in the prompt (template overhead included). */
  countMessage?: (message: Message) => Tokens;
}

export interface StrategyOutput {
  /** The messages to include verbatim, in prompt order (oldest first). */
  messages: Message[];
  memories: ContextMemory[];
  /** Tokens used by `messages` + `memories` as the tokenizer counts them in the prompt. */
  tokens: Tokens;
  /** State to persist for the next round (the forgetting containers, for example). */
  state?: unknown;
}

export interface ContextStrategy {
  readonly name: StrategyName;
  select(input: StrategyInput): StrategyOutput | Promise<StrategyOutput>;
}
