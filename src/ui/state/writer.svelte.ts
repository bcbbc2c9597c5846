/**
 * The writing screen's state (rules U100–U129): one open `WriterSession` for the active
 * writing-project or fiction agent, the section streaming in, what the last step saw (the
 * long-term paragraphs retrieved for its plan) and changed (memory removed/added), the log of
 * autonomous steps (which plan the simulator picked and how it revised it), and stop.
 */
import { AppError } from '../../core/errors';
import type { Agent, AgentId } from '../../core/model';
import type { TurnLock } from '../../core/ports/turn-lock';
import type { AutonomousStep } from '../../core/writer/run-autonomous';
import type { WriterDeps } from '../../core/writer/writer-deps';
import { WriterSession } from '../../core/writer/writer-session';
import type { NewWriterProject, WriterSection, WriterState } from '../../core/writer/writer-state';
import type { PlanChoice, WriterStep } from '../../core/writer/write-step';
import { partialSection } from '../../core/writer/partial-section';
import { describeError } from '../error-copy';

export interface WriterViewDeps {
  writer: WriterDeps;
  /** The search whose indexes must hold the agent before a step (`loadAgent`). */
  search: { readonly agentId?: AgentId | null; loadAgent(agentId: AgentId): Promise<void> };
  modelReady: () => boolean;
  /** One tab at a time writes a project (the app's Web Locks); absent in single-tab tests. */
  lock?: TurnLock;
}

/** What a model operation is doing right now. */
export type WriterActivity = 'start' | 'step' | 'autonomous' | 'edit';

/** One autonomous step as the screen shows it. */
export interface AutonomousEntry {
  /** 0-based index of the plan the simulator picked. */
  index: number;
  /** That plan as the writer proposed it. */
  original: string;
  /** The simulator's revision, which the section was written from. */
  revised: string;
  reason: string;
  sectionId: string;
}

/** A problem to show: what happened and what to do. */
export interface WriterProblem {
  what: string;
  action: string;
}

type CallOptions = { onDelta: (delta: string) => void; signal: AbortSignal };

/** What the user chooses from: if another tab changed it, a choice made here is stale. */
const signature = (s: WriterState | null): string =>
  s === null
    ? ''
    : JSON.stringify([s.sections.map((x) => [x.id, x.text]), s.plans, s.shortTermMemory]);

const slug = (title: string): string =>
  title
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase()
    .slice(0, 60) || 'manuscript';

export class WriterView {
  state = $state.raw<WriterState | null>(null);
  loaded = $state(false);
  activity = $state<WriterActivity | null>(null);
  /** The section text decoded so far while a step streams; null when nothing streams. */
  streaming = $state<string | null>(null);
  lastStep = $state.raw<WriterStep | null>(null);
  /** The autonomous steps of the current or last run, in order. */
  autonomousLog = $state.raw<AutonomousEntry[]>([]);
  progress = $state.raw<{ done: number; total: number } | null>(null);
  problem = $state.raw<WriterProblem | null>(null);
  /** A one-line outcome ("Stopped after 1 of 2 steps."). */
  notice = $state('');

  private session: WriterSession | null = null;
  private controller: AbortController | null = null;
  private raw = '';
  private previousPlans: string[] = [];

  constructor(private readonly deps: WriterViewDeps) {}

  get running(): boolean {
    return this.activity !== null;
  }

  get modelReady(): boolean {
    return this.deps.modelReady();
  }

  get mode(): 'writer' | 'fiction' | null {
    return this.state?.mode ?? null;
  }

  /** What a section is called in this mode. */
  get noun(): 'Scene' | 'Section' {
    return this.state?.mode === 'fiction' ? 'Scene' : 'Section';
  }

  /** The long-term paragraphs (sections) the last step's prompt held, most similar first. */
  get retrieved(): WriterSection[] {
    const step = this.lastStep;
    const state = this.state;
    if (step === null || state === null) return [];
    return step.passageIds.flatMap((id) => state.sections.find((s) => s.id === id) ?? []);
  }

  /** Opens the project of `agent` (null state until it is started). */
  async open(agent: Agent): Promise<void> {
    this.loaded = false;
    this.session = await this.openSession(agent);
    this.state = this.session.state;
    this.loaded = true;
  }

  private openSession(agent: Agent): Promise<WriterSession> {
    return WriterSession.open(this.deps.writer, agent, {
      onChange: (s) => {
        this.previousPlans = this.state?.plans ?? [];
        this.state = s;
      },
    });
  }

  /** Starts the project: the opening section, memory and three plans (U101). */
  start(input: NewWriterProject & { opening?: string }): Promise<boolean> {
    return this.run('start', (s, o) => s.start(input, o).then(this.landed));
  }

  /** Writes the next section from a choice (U103–U105, U110). */
  step(choice: PlanChoice): Promise<boolean> {
    return this.run('step', (s, o) => s.step(choice, o).then(this.landed));
  }

  /** Runs `n` autonomous steps (U107); stop keeps the finished ones. */
  autonomous(n: number): Promise<boolean> {
    const total = Math.max(1, Math.min(20, Math.floor(n)));
    this.autonomousLog = [];
    this.progress = { done: 0, total };
    return this.run('autonomous', async (s, o) => {
      const run = await s.autonomous(total, {
        ...o,
        onStep: (step) => this.logAutonomous(step),
      });
      this.notice =
        run.stopped === 'cancelled'
          ? `Stopped after ${run.steps.length} of ${total} steps; the finished ones are kept.`
          : `Wrote ${run.steps.length} ${run.steps.length === 1 ? 'section' : 'sections'} on its own.`;
    });
  }

  /** Stops the model operation in progress. */
  stop(): void {
    this.controller?.abort();
  }

  /** Saves an edited plan without writing (U104). */
  setPlan(index: number, text: string): Promise<boolean> {
    return this.quick(() => this.require().setPlan(index, text), 'Plan saved.');
  }

  /** Saves the user's short-term memory (U106). */
  setShortTermMemory(text: string): Promise<boolean> {
    return this.quick(() => this.require().setShortTermMemory(text), 'Short-term memory saved.');
  }

  /** Rewrites a section and its long-term passage (U102). */
  editSection(sectionId: string, text: string): Promise<boolean> {
    return this.run('edit', (s) => s.editSection(sectionId, text)).then((ok) => {
      if (ok) this.notice = `${this.noun} saved.`;
      return ok;
    });
  }

  /** The manuscript as a Markdown file (U108). */
  exportFile(): { filename: string; text: string } {
    const session = this.require();
    return { filename: `${slug(session.state?.title ?? '')}.md`, text: session.exportMarkdown() };
  }

  private readonly landed = (step: WriterStep): void => {
    this.lastStep = step;
    const n = this.state?.sections.length ?? 0;
    this.notice = `${this.noun} ${n} written.`;
  };

  private logAutonomous(step: AutonomousStep): void {
    const { choice, reason } = step.simulated;
    this.autonomousLog = [
      ...this.autonomousLog,
      {
        index: choice.index,
        original: this.previousPlans[choice.index] ?? '',
        revised: choice.text,
        reason,
        sectionId: step.step.section.id,
      },
    ];
    this.lastStep = step.step;
    this.raw = '';
    this.streaming = null;
    if (this.progress) this.progress = { ...this.progress, done: this.autonomousLog.length };
  }

  private streamOptions(): Pick<CallOptions, 'onDelta'> {
    return {
      onDelta: (delta) => {
        this.raw += delta;
        // A retried attempt streams a new object after the first: read the newest "section".
        const at = this.raw.lastIndexOf('"section"');
        this.streaming = at < 0 ? null : partialSection(this.raw.slice(at));
      },
    };
  }

  private require(): WriterSession {
    if (this.session === null) throw new AppError('invalid_argument', 'Open the project first.');
    return this.session;
  }

  private async quick(action: () => Promise<void>, done: string): Promise<boolean> {
    if (this.activity !== null) return false;
    this.problem = null;
    try {
      const ran = await this.guarded(this.require(), async () => {
        await action();
        this.notice = done;
      });
      return ran;
    } catch (error) {
      this.fail(error);
      return false;
    }
  }

  /**
   * Runs `action` holding the project's lock, on the saved state (U113): another tab may have
   * written since this one loaded. If it has, nothing runs; the view shows the saved project so
   * the user chooses again from what is really there.
   */
  private async guarded(session: WriterSession, action: () => Promise<void>): Promise<boolean> {
    const release = this.deps.lock ? await this.deps.lock.acquire(session.agent.id) : undefined;
    if (release === null) {
      this.problem = {
        what: 'This project is being written in another tab.',
        action: 'Wait for that tab to finish, or close it, then try again.',
      };
      return false;
    }
    try {
      const saved = await this.openSession(session.agent);
      if (signature(saved.state) !== signature(this.state)) {
        this.session = saved;
        this.state = saved.state;
        this.lastStep = null;
        this.problem = {
          what: 'This project changed in another tab.',
          action: 'This is its latest version; choose again.',
        };
        return false;
      }
      await action();
      return true;
    } finally {
      await release?.();
    }
  }

  private async run(
    activity: WriterActivity,
    action: (session: WriterSession, options: CallOptions) => Promise<void>,
  ): Promise<boolean> {
    if (this.activity !== null) return false;
    this.problem = null;
    this.notice = '';
    const session = this.require();
    const agentId = session.agent.id;
    if (activity !== 'edit' && !this.deps.modelReady()) {
      this.problem = {
        what: 'No writing model is loaded.',
        action: 'Load a model on the Models screen, then come back.',
      };
      return false;
    }
    const controller = new AbortController();
    this.controller = controller;
    this.activity = activity;
    this.raw = '';
    try {
      if (this.deps.search.agentId !== agentId) await this.deps.search.loadAgent(agentId);
      return await this.guarded(session, () =>
        action(this.require(), { ...this.streamOptions(), signal: controller.signal }),
      );
    } catch (error) {
      if (AppError.from(error).code === 'cancelled') {
        this.notice = 'Stopped; the section in progress was not saved.';
      } else {
        this.fail(error);
      }
      return false;
    } finally {
      this.activity = null;
      this.streaming = null;
      this.raw = '';
      this.controller = null;
      if (activity !== 'autonomous') this.progress = null;
    }
  }

  private fail(error: unknown): void {
    const copy = describeError(error);
    this.problem =
      copy.code === 'invalid_argument' || copy.code === 'schema_violation'
        ? { what: copy.detail, action: copy.action }
        : { what: copy.what, action: copy.action };
  }
}
