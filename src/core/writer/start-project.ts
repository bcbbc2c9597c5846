/**
 * Starts a writing project: a fresh state from the genre, topic and optional outline, and the
 * opening step (the first section, the first short-term memory and three plans).
 */
import type { Agent } from '../model';
import type { WriterDeps, WriterOptions } from './writer-deps';
import type { WriterStepOutcome } from './write-step';
import { runWriterStep } from './write-step';
import type { NewWriterProject } from './writer-state';
import { createWriterState } from './writer-state';

/**
 * Creates the project of `agent` (kind `writer` or `fiction`) and writes its opening section.
 * `opening` is an optional hint for the first section (what it should start with).
 */
export async function startProject(
  deps: WriterDeps,
  agent: Agent,
  input: NewWriterProject & { opening?: string },
  options: WriterOptions = {},
): Promise<WriterStepOutcome> {
  const state = createWriterState(agent, input);
  return runWriterStep(
    deps,
    state,
    { text: (input.opening ?? '').trim(), source: 'start' },
    options,
  );
}
