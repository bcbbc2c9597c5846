/**
 * The recursive-summary prompt of the queue manager (seed paper §2.2): the previous summary plus
 * the evicted messages become one new, bounded summary. Product copy, in one place.
 */
import type { ChatTurn } from '../ports/llm-engine';

export function summaryPrompt(previous: string, transcript: string, maxWords: number): ChatTurn[] {
  return [
    {
      role: 'system',
      content: `You maintain the running summary of a long conversation. Merge the previous summary and the new messages into one summary of at most ${maxWords} words. Keep names, facts about the user, dates, promises and open questions; drop small talk. Write plain sentences, no preamble.`,
    },
    {
      role: 'user',
      content: `Previous summary:\n${previous || '(none)'}\n\nNew messages:\n${transcript}\n\nNew summary:`,
    },
  ];
}
