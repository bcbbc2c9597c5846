/**
 * The recursive-summary prompt of the queue manager (seed paper §2.2): the previous summary plus
 * the evicted messages become one new, bounded summary. Product copy, in one place.
 */
import type { ChatTurn } from '../ports/llm-engine';

/** What the summarizer is asked to do (one place, used by both prompt shapes below). */
function summaryTask(maxWords: number): string {
  return `You maintain the running summary of a long conversation. Merge the previous summary and the new messages into one summary of at most ${maxWords} words. Keep names, facts about the user, dates, promises and open questions; drop small talk. Write plain sentences, no preamble.`;
}

function summaryMaterial(previous: string, transcript: string): string {
  return `Previous summary:\n${previous || '(none)'}\n\nNew messages:\n${transcript}\n\nNew summary:`;
}

/**
 * The summary request. With `agentSystem` (the system message of the agent's own steps) the
 * request opens with that very message and the task follows as a user turn (C26): an engine that
 * keeps the longest common prefix (llama.cpp, wllama, a model server) then holds the system
 * message across the step before the flush, the summary request and the step after it. Without
 * it, the summarizer's own system message.
 */
export function summaryPrompt(
  previous: string,
  transcript: string,
  maxWords: number,
  agentSystem?: string,
): ChatTurn[] {
  if (agentSystem !== undefined) {
    return [
      { role: 'system', content: agentSystem },
      {
        role: 'user',
        // The system message above already ends with the previous summary: not repeated here.
        content: `[Memory manager, not the user] ${summaryTask(maxWords)} Answer with the summary only: no JSON, no tool call.\n\n${summaryMaterial(previous === '' ? '' : '(the summary of earlier conversation above)', transcript)}`,
      },
    ];
  }
  return [
    { role: 'system', content: summaryTask(maxWords) },
    { role: 'user', content: summaryMaterial(previous, transcript) },
  ];
}
