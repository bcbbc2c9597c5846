/**
 * Autonomous mode: `n` rounds of "the human simulator picks and revises a plan, then the
 * writer writes the section". Stopping (the signal aborts) is an expected outcome: the steps
 * finished so far are kept and saved, and the result says it was cancelled.
 */
import { AppError } from '../errors';
import type { SimulatedChoice } from './simulate-human';
import { simulateHuman } from './simulate-human';
import type { WriterDeps, WriterOptions } from './writer-deps';
import type { WriterStep } from './write-step';
import { writeStep } from './write-step';
import type { WriterState } from './writer-state';

export interface AutonomousStep {
  simulated: SimulatedChoice;
  step: WriterStep;
}

export interface AutonomousRun {
  state: WriterState;
  steps: AutonomousStep[];
  stopped: 'done' | 'cancelled';
}

/** Runs up to `n` simulated steps; `onStep` sees each one as it lands. */
export async function runAutonomous(
  deps: WriterDeps,
  state: WriterState,
  n: number,
  options: WriterOptions & { onStep?: (step: AutonomousStep, state: WriterState) => void } = {},
): Promise<AutonomousRun> {
  const steps: AutonomousStep[] = [];
  let current = state;
  for (let i = 0; i < n; i += 1) {
    if (options.signal?.aborted) return { state: current, steps, stopped: 'cancelled' };
    try {
      const simulated = await simulateHuman(deps, current, options);
      const outcome = await writeStep(deps, current, simulated.choice, options);
      current = outcome.state;
      const done = { simulated, step: outcome.step };
      steps.push(done);
      options.onStep?.(done, current);
    } catch (error) {
      if (error instanceof AppError && error.code === 'cancelled') {
        return { state: current, steps, stopped: 'cancelled' };
      }
      throw error;
    }
  }
  return { state: current, steps, stopped: 'done' };
}
