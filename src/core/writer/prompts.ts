/**
 * The writing-mode prompts (product copy, in one place): the RecurrentGPT step prompt adapted
 * from seed 000 appendix A — compact enough for a 4k window — in a third-person writer variant
 * and a first-person interactive-fiction variant, and the human-simulator prompt of
 * autonomous mode. The model answers with one JSON object; the schemas are in
 * `step-schema.ts`, and the prompt names the same keys.
 */
import type { WriterMode } from './writer-state';

/** Lengths the prompt asks for; sized for 4k windows (seed 000 asks for 20 / 20 / 5 sentences). */
export interface PromptLengths {
  sectionSentences: number;
  memorySentences: number;
  planSentences: number;
}

export const DEFAULT_PROMPT_LENGTHS: PromptLengths = {
  sectionSentences: 12,
  memorySentences: 12,
  planSentences: 3,
};

/** The system message of a step. */
export function stepSystemPrompt(mode: WriterMode, lengths: PromptLengths): string {
  const common = [
    'Because you cannot see everything written so far, you keep a short-term memory: a brief summary of the key facts (characters, places, what happened, open threads).',
    'Write in the language of the topic and outline (a Chinese topic gets a Chinese story).',
    'Reply with one JSON object with these keys:',
  ];
  if (mode === 'fiction') {
    return [
      'You run an interactive fiction told in the first person: "I" is the reader, the protagonist.',
      ...common,
      `- "section": what happens next, about ${lengths.sectionSentences} sentences, in the first person, following my action and consistent with the memory and the earlier passages. Do not repeat the last section. End where I must decide what to do.`,
      '- "memory_removed": which sentences of the memory are no longer needed, and why.',
      '- "memory_added": what must be added to the memory, and why.',
      `- "memory": the updated memory — the old memory without what you removed, plus what you added; key facts only, at most ${lengths.memorySentences} sentences.`,
      '- "plan_1", "plan_2", "plan_3": three different choices for what I could do next, each one or two sentences, written as my action.',
      'Good choice: "I follow the wet footprints down to the cellar."',
      'Bad choice: "Something happens." (not an action I can take)',
    ].join('\n');
  }
  return [
    'You co-write a long story with a human, one section at a time.',
    ...common,
    `- "section": the next section, about ${lengths.sectionSentences} sentences, following the plan and consistent with the memory and the earlier passages. Continue the story; do not repeat the last section.`,
    '- "memory_removed": which sentences of the memory are no longer needed, and why.',
    '- "memory_added": what must be added to the memory, and why.',
    `- "memory": the updated memory — the old memory without what you removed, plus what you added; key facts only, at most ${lengths.memorySentences} sentences.`,
    `- "plan_1", "plan_2", "plan_3": three different plans for the next section, each about ${lengths.planSentences} sentences, each a possible interesting continuation.`,
    'Good plan: "Mara finds the keeper\'s logbook and learns the lamp was put out on purpose. She decides to confront him at dawn."',
    'Bad plan: "The story continues." (too vague to write from)',
  ].join('\n');
}

/** The parts of a step's user message, already trimmed to the budget. */
export interface StepUserParts {
  mode: WriterMode;
  genre: string;
  topic: string;
  outline: string;
  shortTermMemory: string;
  passages: string[];
  lastSection: string;
  plan: string;
  /** True for the opening step (no memory, no last section yet). */
  opening: boolean;
  /** One sentence about what was wrong with the previous answer, on a retry. */
  feedback?: string;
}

/** The user message of a step. Empty parts are left out. */
export function stepUserPrompt(parts: StepUserParts): string {
  const out: string[] = [`Genre: ${parts.genre}`, `Topic: ${parts.topic}`];
  if (parts.outline !== '') out.push(`Outline:\n${parts.outline}`);
  if (parts.shortTermMemory !== '') out.push(`Short-term memory:\n${parts.shortTermMemory}`);
  if (parts.passages.length > 0) {
    out.push(
      `Earlier passages related to the plan:\n${parts.passages.map((p, i) => `[${i + 1}] ${p}`).join('\n')}`,
    );
  }
  if (parts.lastSection !== '') out.push(`Last section:\n${parts.lastSection}`);
  if (parts.opening) {
    out.push(
      parts.mode === 'fiction'
        ? `Begin the story: set the scene around me and end with my first decision.${parts.plan === '' ? '' : `\nStart from: ${parts.plan}`}`
        : `Write the opening section.${parts.plan === '' ? '' : `\nPlan: ${parts.plan}`} The memory starts empty: "memory_removed" is "nothing".`,
    );
  } else {
    out.push(
      parts.mode === 'fiction'
        ? `What I do next:\n${parts.plan}`
        : `Plan for the next section:\n${parts.plan}`,
    );
  }
  if (parts.feedback !== undefined) {
    out.push(
      `Your previous answer was rejected: ${parts.feedback} Answer again with one JSON object.`,
    );
  }
  return out.join('\n\n');
}

/** The system message of the human simulator (autonomous mode). */
export function simulatorSystemPrompt(mode: WriterMode): string {
  const role =
    mode === 'fiction'
      ? 'You play an interactive fiction as its reader: "I" is you, the protagonist. Pick the choice you would most like to make and write the action you take; you may adapt it.'
      : 'You are a human writer working with an AI co-writer. Pick the plan that gives the most interesting and coherent continuation, then revise it: make it concrete and fix anything that contradicts the memory.';
  return [
    role,
    'Reply with one JSON object: "choice" (1, 2 or 3), "reason" (one sentence), "plan" (the revised plan, at most 3 sentences).',
  ].join('\n');
}

/** The user message of the human simulator. */
export function simulatorUserPrompt(
  mode: WriterMode,
  memory: string,
  lastSection: string,
  plans: readonly string[],
  feedback?: string,
): string {
  const label = mode === 'fiction' ? 'Choices' : 'Plans';
  const out = [
    `Short-term memory:\n${memory === '' ? '(empty)' : memory}`,
    `Last section:\n${lastSection}`,
    `${label}:\n${plans.map((p, i) => `${i + 1}. ${p}`).join('\n')}`,
  ];
  if (feedback !== undefined) {
    out.push(`Your previous answer was rejected: ${feedback} Answer again with one JSON object.`);
  }
  return out.join('\n\n');
}
