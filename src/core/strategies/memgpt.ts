/**
 * The `memgpt` context strategy: the FIFO queue (the in-context messages, newest last) plus the
 * relevant memories automatic recall found, in the room the queue leaves, bounded by
 * `recallBudget`. It keeps the newest
 * contiguous run of the queue that fits, always with the message the reply answers (pinned,
 * C3): in a long tool chain the oldest steps of the turn leave the prompt before the question
 * does. The queue manager evicts before anything drops (C8), so in steady state every queued
 * message is in the prompt.
 */
import type { Message } from '../model';
import type { Tokens } from '../units';
import { memoryHeaderCost } from './prompt-cost';
import { pinnedMessage } from '../context/pinned-message';
import type {
  ContextMemory,
  ContextStrategy,
  StrategyInput,
  StrategyOutput,
} from '../context/strategy';

/** Tokens of one memory line (`- text\n`) inside the memories section. */
export function memoryLineTokens(input: StrategyInput, memory: ContextMemory): Tokens {
  return input.tokenizer.count(`- ${memory.text}\n`);
}

function fillMessages(
  history: readonly Message[],
  budget: Tokens,
  count: (message: Message) => Tokens,
): { messages: Message[]; tokens: Tokens } {
  const picked: Message[] = [];
  let tokens = 0;
  for (let i = history.length - 1; i >= 0; i -= 1) {
    const message = history[i] as Message;
    const cost = count(message);
    if (tokens + cost > budget) break;
    picked.push(message);
    tokens += cost;
  }
  return { messages: picked.reverse(), tokens };
}

/** Creates the `memgpt` strategy (stateless). */
export function createMemgptStrategy(): ContextStrategy {
  return {
    name: 'memgpt',
    select(input: StrategyInput): StrategyOutput {
      const count =
        input.countMessage ?? ((m: Message) => input.tokenizer.countMessage(m.role, m.text));
      const pinned = pinnedMessage(input.history);
      const fill = (budget: Tokens): { messages: Message[]; tokens: Tokens } => {
        const all = fillMessages(input.history, budget, count);
        if (!pinned || all.messages.includes(pinned)) return all;
        const cost = count(pinned);
        const after = input.history.slice(input.history.indexOf(pinned) + 1);
        const rest = fillMessages(after, budget - cost, count);
        return cost > budget
          ? rest
          : { messages: [pinned, ...rest.messages], tokens: cost + rest.tokens };
      };
      // Messages come first (C5, ADR 0203): recalled lines take only the room the queue leaves,
      // within the recall budget, so they shrink before any message would have to be evicted,
      // and they never fill free room past the budget (the fill of ADR 0072 is gone).
      const filled = fill(input.budget);
      const room = Math.min(input.agent.budgets.recallBudget, input.budget - filled.tokens);
      const memories: ContextMemory[] = [];
      let memoryTokens = 0;
      // A header line and a user turn's template tokens come with the memories.
      const header = memoryHeaderCost(input);
      for (const candidate of input.candidates ?? []) {
        const cost = memoryLineTokens(input, candidate);
        if (header + memoryTokens + cost > room) continue;
        memories.push({ ...candidate, tokens: cost });
        memoryTokens += cost;
      }
      const used = memories.length > 0 ? header + memoryTokens : 0;
      return { messages: filled.messages, memories, tokens: used + filled.tokens };
    },
  };
}
