/**
 * The human simulator of autonomous mode (seed 000 §2.2): the model reads the memory, the last
 * section and the three plans, picks one and revises it — a schema-constrained step of its
 * own — and the revision becomes an `edit` choice for the next writing step.
 */
import { AppError } from '../errors';
import type { ChatTurn } from '../ports/llm-engine';
import { completeJson } from './complete-json';
import { simulatorSystemPrompt, simulatorUserPrompt } from './prompts';
import { checkSimulatorStep, HUMAN_SIMULATOR_SCHEMA, PLAN_COUNT } from './step-schema';
import type { WriterDeps, WriterOptions } from './writer-deps';
import { resolveWriterOptions } from './writer-deps';
import type { PlanChoice } from './write-step';
import type { WriterState } from './writer-state';

/** Reply reserve of a simulator step: a choice, a sentence of reason and a short plan. */
export const SIMULATOR_MAX_TOKENS = 320;

export interface SimulatedChoice {
  /** An `edit` of the picked plan with the simulator's revision. */
  choice: Extract<PlanChoice, { type: 'edit' }>;
  reason: string;
  attempts: number;
}

/** Asks the model to pick and revise one of `state.plans`. */
export async function simulateHuman(
  deps: WriterDeps,
  state: WriterState,
  options: WriterOptions = {},
): Promise<SimulatedChoice> {
  if (state.plans.length !== PLAN_COUNT) {
    throw new AppError('invalid_argument', 'There are no three plans to choose from yet.');
  }
  const o = resolveWriterOptions(options);
  const tokenizer = await deps.engine.tokenizer();
  const budget = deps.engine.contextWindow() - SIMULATOR_MAX_TOKENS;
  const last = state.sections[state.sections.length - 1]?.text ?? '';
  const prompt = (feedback: string | undefined): ChatTurn[] => {
    const system = simulatorSystemPrompt(state.mode);
    const systemTokens = tokenizer.countMessage('system', system);
    // The last section is the part that gives way (its tail kept) if the window is tight.
    let section = last;
    const user = (): string =>
      simulatorUserPrompt(state.mode, state.shortTermMemory, section, state.plans, feedback);
    while (section !== '' && systemTokens + tokenizer.countMessage('user', user()) > budget) {
      section = section.slice(Math.ceil(section.length / 4));
    }
    if (systemTokens + tokenizer.countMessage('user', user()) > budget) {
      throw new AppError('context_window_exceeded', 'The plans and memory do not fit the window.');
    }
    return [
      { role: 'system', content: system },
      { role: 'user', content: user() },
    ];
  };
  const answer = await completeJson({
    engine: deps.engine,
    schema: HUMAN_SIMULATOR_SCHEMA,
    maxTokens: SIMULATOR_MAX_TOKENS,
    maxAttempts: o.maxAttempts,
    prompt,
    check: checkSimulatorStep,
    ...(o.temperature === undefined ? {} : { temperature: o.temperature }),
    ...(o.signal === undefined ? {} : { signal: o.signal }),
  });
  return {
    choice: { type: 'edit', index: answer.value.choice - 1, text: answer.value.plan },
    reason: answer.value.reason,
    attempts: answer.attempts,
  };
}
