/**
 * How the strategies count what they put in the prompt, so their totals match what
 * `planContext` counts: messages through `input.countMessage` when the planner supplies it
 * (the template overhead included), memories as one `- text` line each under one section
 * header — the same rendering the `memgpt` strategy counts.
 */
import type { ContextMemory, StrategyInput } from '../context/strategy';
import type { Message } from '../model';
import { MEMORIES_HEADER } from '../prompts/render-context';
import type { Tokens } from '../units';

/** The memories section header the planner renders once above the memory lines. */
export const MEMORY_SECTION_HEADER = `${MEMORIES_HEADER}\n`;

/** A function that counts one message as rendered in the prompt. */
export function messageCounter(input: StrategyInput): (message: Message) => Tokens {
  return input.countMessage ?? ((m: Message) => input.tokenizer.countMessage(m.role, m.text));
}

/** Tokens of one memory line (`- text\n`) inside the memories section. */
export function memoryLineCost(input: StrategyInput, text: string): Tokens {
  return input.tokenizer.count(`- ${text}\n`);
}

/**
 * Tokens of the memories turn beyond its lines (paid once when there is at least one memory):
 * its header and the chat template's tokens around a user turn.
 */
export function memoryHeaderCost(input: StrategyInput): Tokens {
  return input.tokenizer.countMessage('user', MEMORY_SECTION_HEADER);
}

/** The sum of the `tokens` of `memories` plus the header when there are any. */
export function memoriesCost(input: StrategyInput, memories: readonly ContextMemory[]): Tokens {
  if (memories.length === 0) return 0;
  return memories.reduce((sum, m) => sum + m.tokens, memoryHeaderCost(input));
}
