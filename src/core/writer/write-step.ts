/**
 * One RecurrentGPT step (seed 000): the chosen plan searches the long-term memory (every
 * section written so far, as `writer` passages), the prompt gets the short-term memory, the
 * last section, the plan and the most similar passages within the window, and the model
 * returns one schema-constrained JSON object: the next section, what it removed from and added
 * to the short-term memory and why, the updated memory and three new plans. The section is
 * stored as a passage and indexed, then the state is saved.
 */
import { AppError } from '../errors';
import type { Passage } from '../model';
import type { Tokens } from '../units';
import { buildStepPrompt } from './build-step-prompt';
import type { TrimmedPart } from './build-step-prompt';
import { completeJson } from './complete-json';
import { checkWriterStep, WRITER_STEP_SCHEMA } from './step-schema';
import type { WriterStepOutput } from './step-schema';
import type { WriterDeps, WriterOptions } from './writer-deps';
import { resolveWriterOptions } from './writer-deps';
import { saveWriterState } from './writer-persistence';
import type { PlanSource, WriterSection, WriterState } from './writer-state';

/** The tag every writing-mode passage carries. */
export const WRITER_TAG = 'writer';

/**
 * How the next section's plan is chosen: one of the three plans as it is, one of them edited,
 * the user's own plan, or — in interactive fiction — a free-form action of the protagonist.
 * `index` is 0-based.
 */
export type PlanChoice =
  | { type: 'pick'; index: number }
  | { type: 'edit'; index: number; text: string }
  | { type: 'own'; text: string }
  | { type: 'action'; text: string };

/** What one step did, for the UI. */
export interface WriterStep {
  section: WriterSection;
  output: WriterStepOutput;
  /** Model calls it took (1 unless an answer was rejected). */
  attempts: number;
  promptTokens: Tokens;
  /** The long-term passages that were in the prompt, most similar first. */
  passageIds: string[];
  trimmed: TrimmedPart[];
}

export interface WriterStepOutcome {
  state: WriterState;
  step: WriterStep;
}

/** The plan text of a choice; a bad index or an empty text throws `invalid_argument`. */
export function resolvePlanChoice(
  state: WriterState,
  choice: PlanChoice,
): { text: string; source: PlanSource } {
  const bad = (message: string): never => {
    throw new AppError('invalid_argument', message, { choice });
  };
  let text: string;
  switch (choice.type) {
    case 'pick': {
      text = state.plans[choice.index] ?? bad(`There is no plan ${choice.index + 1}.`);
      break;
    }
    case 'edit': {
      if (state.plans[choice.index] === undefined) bad(`There is no plan ${choice.index + 1}.`);
      text = choice.text;
      break;
    }
    case 'own':
      text = choice.text;
      break;
    case 'action':
      if (state.mode !== 'fiction') bad('Free-form actions belong to interactive fiction.');
      text = choice.text;
      break;
  }
  if (text.trim() === '') bad('The plan is empty.');
  return { text: text.trim(), source: choice.type };
}

async function retrieve(
  deps: WriterDeps,
  state: WriterState,
  plan: string,
  k: number,
): Promise<Array<{ id: string; text: string }>> {
  const sections = new Map(state.sections.map((s) => [s.id, s]));
  const last = state.sections[state.sections.length - 1];
  if (k <= 0 || sections.size <= (last === undefined ? 0 : 1)) return [];
  const page = await deps.search.search({
    agentId: state.agentId,
    text: plan,
    kinds: ['passage'],
    mode: 'hybrid',
    page: 1,
    // Over-fetch: other passages of the agent (orphans, imports) are filtered out below.
    pageSize: k * 3,
    ...(last === undefined ? {} : { exclude: [last.id] }),
  });
  const out: Array<{ id: string; text: string }> = [];
  for (const hit of page.hits) {
    const section = sections.get(hit.id);
    if (section === undefined || section.id === last?.id) continue;
    // The state's text wins: the user may have edited the section after it was indexed.
    out.push({ id: section.id, text: section.text });
    if (out.length >= k) break;
  }
  return out;
}

/**
 * Runs a step from an already-resolved plan. Used by {@link writeStep} and the opening step;
 * `opening` marks the first section (no memory, no last section).
 */
export async function runWriterStep(
  deps: WriterDeps,
  state: WriterState,
  plan: { text: string; source: PlanSource },
  options: WriterOptions = {},
): Promise<WriterStepOutcome> {
  const o = resolveWriterOptions(options);
  const opening = plan.source === 'start';
  const tokenizer = await deps.engine.tokenizer();
  const budget = deps.engine.contextWindow() - o.maxTokens;
  if (budget <= 0) {
    throw new AppError('context_window_exceeded', 'The reply reserve fills the whole window.', {
      contextWindow: deps.engine.contextWindow(),
      maxTokens: o.maxTokens,
    });
  }
  const passages = opening ? [] : await retrieve(deps, state, plan.text, o.longTermPassages);
  const lastSection = state.sections[state.sections.length - 1]?.text ?? '';
  let built = { tokens: 0, passageIds: [] as string[], trimmed: [] as TrimmedPart[] };
  const answer = await completeJson({
    engine: deps.engine,
    schema: WRITER_STEP_SCHEMA,
    maxTokens: o.maxTokens,
    maxAttempts: o.maxAttempts,
    check: (raw) => checkWriterStep(raw, tokenizer, o.memoryMaxTokens),
    prompt: (feedback) => {
      const prompt = buildStepPrompt(
        {
          mode: state.mode,
          lengths: o.lengths,
          genre: state.genre,
          topic: state.topic,
          outline: state.outline,
          shortTermMemory: state.shortTermMemory,
          lastSection,
          plan: plan.text,
          opening,
          passages,
          ...(feedback === undefined ? {} : { feedback }),
        },
        tokenizer,
        budget,
      );
      built = prompt;
      return prompt.messages;
    },
    ...(o.temperature === undefined ? {} : { temperature: o.temperature }),
    ...(o.signal === undefined ? {} : { signal: o.signal }),
    ...(o.onDelta === undefined ? {} : { onDelta: o.onDelta }),
  });
  const output = answer.value;
  const at = deps.clock.now();
  const section: WriterSection = {
    id: deps.ids.next('section'),
    text: output.section,
    plan: plan.text,
    planSource: plan.source,
    at,
  };
  const passage: Passage = {
    id: section.id,
    agentId: state.agentId,
    text: section.text,
    source: { type: 'memory' },
    tags: [WRITER_TAG, `${WRITER_TAG}:${state.mode}`],
    at,
    embedding: null,
    embeddingModel: null,
    dimension: 0,
  };
  const next: WriterState = {
    ...state,
    shortTermMemory: output.memory,
    plans: output.plans,
    sections: [...state.sections, section],
    lastMemoryUpdate: { removed: output.memoryRemoved, added: output.memoryAdded },
  };
  await deps.store.apply({ passages: [passage] });
  await deps.search.indexPassages([passage]);
  await saveWriterState(deps.store, next);
  return {
    state: next,
    step: {
      section,
      output,
      attempts: answer.attempts,
      promptTokens: built.tokens,
      passageIds: built.passageIds,
      trimmed: built.trimmed,
    },
  };
}

/** Writes the next section from a choice among the plans, an edited plan, or the user's own. */
export async function writeStep(
  deps: WriterDeps,
  state: WriterState,
  choice: PlanChoice,
  options: WriterOptions = {},
): Promise<WriterStepOutcome> {
  if (state.sections.length === 0) {
    throw new AppError('invalid_argument', 'Start the project before writing a next section.');
  }
  return runWriterStep(deps, state, resolvePlanChoice(state, choice), options);
}
