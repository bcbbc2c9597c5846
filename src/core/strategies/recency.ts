/**
 * The `recency` strategy: the prompt-building behaviour seed 002 observed in ChatGPT. Walking
 * back from the newest message, the current round and the last `bothSidesRounds` completed
 * rounds are kept from both sides; older rounds contribute only their user-side messages
 * (`user`, `event`), newest first, until the budget is used. The output is chronological.
 */
import type { ContextStrategy, StrategyInput, StrategyOutput } from '../context/strategy';
import type { Message } from '../model';
import type { Tokens } from '../units';
import { messageCounter } from './prompt-cost';
import { isUserSide, splitRounds } from './rounds';

/** Options of {@link createRecencyStrategy}. */
export interface RecencyOptions {
  /**
   * Completed rounds kept from both sides before the user-only part begins. Seed 002 saw
   * "about three rounds, or a few hundred tokens"; 3 is its estimate.
   */
  bothSidesRounds?: number;
  /**
   * Optional token cap of the both-sides part ("or a few hundred tokens", seed 002): once the
   * messages taken from both sides reach it, older messages come from the user's side only.
   */
  bothSidesTokens?: Tokens;
}

/** Default of {@link RecencyOptions.bothSidesRounds}, from seed 002's estimate. */
export const DEFAULT_BOTH_SIDES_ROUNDS = 3;

/**
 * Creates the `recency` strategy. It stops at the first message that does not fit (F11), so a
 * long old message is not skipped in favour of even older ones.
 */
export function createRecencyStrategy(options: RecencyOptions = {}): ContextStrategy {
  const bothSidesRounds = Math.max(0, options.bothSidesRounds ?? DEFAULT_BOTH_SIDES_ROUNDS);
  const bothSidesTokens = options.bothSidesTokens ?? Number.POSITIVE_INFINITY;
  return {
    name: 'recency',
    select(input: StrategyInput): StrategyOutput {
      const rounds = splitRounds(input.history);
      const count = messageCounter(input);
      const picked: Message[] = [];
      let used: Tokens = 0;
      // The newest round is the one in progress; it and `bothSidesRounds` before it are whole.
      const wholeFrom = rounds.length - 1 - bothSidesRounds;
      outer: for (let r = rounds.length - 1; r >= 0; r -= 1) {
        const round = rounds[r];
        if (round === undefined) continue;
        for (let i = round.messages.length - 1; i >= 0; i -= 1) {
          const message = round.messages[i];
          if (message === undefined) continue;
          // The round in progress is always whole: its tool results feed the next step.
          const bothSides = r === rounds.length - 1 || (r >= wholeFrom && used < bothSidesTokens);
          if (!bothSides && !isUserSide(message)) continue;
          const cost = count(message);
          if (used + cost > input.budget) break outer;
          used += cost;
          picked.push(message);
        }
      }
      picked.reverse();
      return { messages: picked, memories: [], tokens: used };
    },
  };
}
