/**
 * One open writing project, for the UI to drive: it holds the deps and the current state,
 * runs one model operation at a time (a second one while busy throws `agent_busy`), saves
 * every user edit, and tells a listener when the state changes. Everything it does is one of
 * the pure-core functions of this folder; it adds no behaviour of its own.
 */
import { AppError } from '../errors';
import type { Agent } from '../model';
import { editSection } from './edit-section';
import { exportMarkdown } from './export-markdown';
import type { AutonomousRun, AutonomousStep } from './run-autonomous';
import { runAutonomous } from './run-autonomous';
import type { SimulatedChoice } from './simulate-human';
import { simulateHuman } from './simulate-human';
import { startProject } from './start-project';
import type { WriterDeps, WriterOptions } from './writer-deps';
import { loadWriterState, saveWriterState } from './writer-persistence';
import type { PlanChoice, WriterStep } from './write-step';
import { writeStep } from './write-step';
import type { NewWriterProject, WriterState } from './writer-state';
import { withPlan, withShortTermMemory } from './writer-state';

export class WriterSession {
  private current: WriterState | null;
  private busy = false;

  private constructor(
    private readonly deps: WriterDeps,
    readonly agent: Agent,
    state: WriterState | null,
    private readonly options: WriterOptions,
    private readonly onChange: ((state: WriterState) => void) | undefined,
  ) {
    this.current = state;
  }

  /** Opens the project of `agent` (null state when it has not been started). */
  static async open(
    deps: WriterDeps,
    agent: Agent,
    options: WriterOptions & { onChange?: (state: WriterState) => void } = {},
  ): Promise<WriterSession> {
    const state = (await loadWriterState(deps.store, agent.id)) ?? null;
    const { onChange, ...rest } = options;
    return new WriterSession(deps, agent, state, rest, onChange);
  }

  /** The project, or null before {@link start}. */
  get state(): WriterState | null {
    return this.current;
  }

  get running(): boolean {
    return this.busy;
  }

  /** Starts the project (G1); refuses when it already has sections. `options` apply to this call. */
  async start(
    input: NewWriterProject & { opening?: string },
    options: WriterOptions = {},
  ): Promise<WriterStep> {
    if (this.current !== null && this.current.sections.length > 0) {
      throw new AppError('invalid_argument', 'This project has already started.');
    }
    return this.exclusive(async () => {
      const out = await startProject(this.deps, this.agent, input, {
        ...this.options,
        ...options,
      });
      this.set(out.state);
      return out.step;
    });
  }

  /** Writes the next section from a plan choice (G2, G9). */
  async step(choice: PlanChoice, options: WriterOptions = {}): Promise<WriterStep> {
    const state = this.require();
    return this.exclusive(async () => {
      const out = await writeStep(this.deps, state, choice, { ...this.options, ...options });
      this.set(out.state);
      return out.step;
    });
  }

  /** Asks the human simulator for a choice without writing (the UI may show it first). */
  async simulate(): Promise<SimulatedChoice> {
    const state = this.require();
    return this.exclusive(() => simulateHuman(this.deps, state, this.options));
  }

  /** Autonomous mode for `n` steps (G7); the state updates after each step. */
  async autonomous(
    n: number,
    options: WriterOptions & { onStep?: (step: AutonomousStep) => void } = {},
  ): Promise<AutonomousRun> {
    const state = this.require();
    return this.exclusive(() =>
      runAutonomous(this.deps, state, n, {
        ...this.options,
        ...options,
        onStep: (step, next) => {
          this.set(next);
          options.onStep?.(step);
        },
      }),
    );
  }

  /** Replaces the short-term memory with the user's text, and saves. */
  async setShortTermMemory(text: string): Promise<void> {
    await this.save(withShortTermMemory(this.require(), text));
  }

  /** Replaces candidate plan `index` (0-based), and saves. */
  async setPlan(index: number, text: string): Promise<void> {
    await this.save(withPlan(this.require(), index, text));
  }

  /** Rewrites a section and its passage (G10). */
  async editSection(sectionId: string, text: string): Promise<void> {
    const state = this.require();
    await this.exclusive(async () => {
      this.set(await editSection(this.deps, state, sectionId, text));
    });
  }

  /** The manuscript as Markdown (G8). */
  exportMarkdown(): string {
    return exportMarkdown(this.require());
  }

  private require(): WriterState {
    if (this.current === null) {
      throw new AppError('invalid_argument', 'Start the project first.');
    }
    return this.current;
  }

  private async save(state: WriterState): Promise<void> {
    if (this.busy) throw new AppError('agent_busy', 'Wait for the current step to finish.');
    await saveWriterState(this.deps.store, state);
    this.set(state);
  }

  private set(state: WriterState): void {
    this.current = state;
    this.onChange?.(state);
  }

  private async exclusive<T>(run: () => Promise<T>): Promise<T> {
    if (this.busy) throw new AppError('agent_busy', 'Wait for the current step to finish.');
    this.busy = true;
    try {
      return await run();
    } finally {
      this.busy = false;
    }
  }
}
