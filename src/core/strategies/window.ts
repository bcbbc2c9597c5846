/**
 * The `window` strategy: plain truncation — as many of the newest messages as fit the budget,
 * of every role, in chronological order. It stops at the first message that does not fit, so
 * the prompt always holds a contiguous tail of the conversation (rule F20).
 */
import type { ContextStrategy, StrategyInput, StrategyOutput } from '../context/strategy';
import type { Tokens } from '../units';
import { messageCounter } from './prompt-cost';

/** Creates the `window` strategy. It keeps no state. */
export function createWindowStrategy(): ContextStrategy {
  return {
    name: 'window',
    select(input: StrategyInput): StrategyOutput {
      const count = messageCounter(input);
      const picked = [];
      let used: Tokens = 0;
      for (let i = input.history.length - 1; i >= 0; i -= 1) {
        const message = input.history[i];
        if (message === undefined) continue;
        const cost = count(message);
        if (used + cost > input.budget) break;
        used += cost;
        picked.push(message);
      }
      picked.reverse();
      return { messages: picked, memories: [], tokens: used };
    },
  };
}
