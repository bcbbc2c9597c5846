/**
 * The state of a writing project (RecurrentGPT, seed 000): the inputs, the short-term memory,
 * the three candidate plans and the sections in order. It is plain JSON and persists as one
 * setting per agent (see `writer-persistence.ts`); each section is also an archival passage
 * tagged `writer`, which is the long-term memory the plan searches.
 */
import { AppError } from '../errors';
import type { Agent, AgentId, AgentKind, PassageId } from '../model';
import type { EpochMs } from '../units';

/** `writer`: third-person co-writing; `fiction`: first-person interactive fiction. */
export type WriterMode = 'writer' | 'fiction';

/** How the plan of a section was chosen. */
export type PlanSource = 'start' | 'pick' | 'edit' | 'own' | 'action' | 'simulator';

/** One written section; its id is also the id of its archival passage. */
export interface WriterSection {
  id: PassageId;
  text: string;
  /** The plan (or, in fiction, the protagonist's action) the section was written from. */
  plan: string;
  planSource: PlanSource;
  at: EpochMs;
}

/** What the model said it removed from and added to the short-term memory, and why. */
export interface MemoryUpdate {
  removed: string;
  added: string;
}

export interface WriterState {
  version: 1;
  agentId: AgentId;
  mode: WriterMode;
  title: string;
  genre: string;
  topic: string;
  /** Optional outline; '' when none was given. */
  outline: string;
  shortTermMemory: string;
  /** The three candidate plans (choices, in fiction) for the next section; [] before the start. */
  plans: string[];
  sections: WriterSection[];
  lastMemoryUpdate: MemoryUpdate | null;
}

/** What the user gives to start a project. */
export interface NewWriterProject {
  genre: string;
  topic: string;
  outline?: string;
}

/** The writing mode of an agent kind, or null for kinds that are not writing projects. */
export function writerModeOf(kind: AgentKind): WriterMode | null {
  if (kind === 'writer' || kind === 'fiction') return kind;
  return null;
}

/**
 * A fresh project for `agent` (kind `writer` or `fiction`); throws `invalid_argument` for
 * other kinds or an empty genre/topic.
 */
export function createWriterState(agent: Agent, input: NewWriterProject): WriterState {
  const mode = writerModeOf(agent.kind);
  if (mode === null) {
    throw new AppError('invalid_argument', `Agent "${agent.name}" is not a writing project.`, {
      kind: agent.kind,
    });
  }
  const genre = input.genre.trim();
  const topic = input.topic.trim();
  if (genre === '' || topic === '') {
    throw new AppError('invalid_argument', 'A writing project needs a genre and a topic.');
  }
  return {
    version: 1,
    agentId: agent.id,
    mode,
    title: agent.name,
    genre,
    topic,
    outline: (input.outline ?? '').trim(),
    shortTermMemory: '',
    plans: [],
    sections: [],
    lastMemoryUpdate: null,
  };
}

/** The state with the short-term memory replaced by the user's text. */
export function withShortTermMemory(state: WriterState, text: string): WriterState {
  return { ...state, shortTermMemory: text };
}

/** The state with candidate plan `index` (0-based) replaced; throws on a bad index. */
export function withPlan(state: WriterState, index: number, text: string): WriterState {
  if (!Number.isInteger(index) || index < 0 || index >= state.plans.length) {
    throw new AppError('invalid_argument', `There is no plan ${index + 1}.`, {
      plans: state.plans.length,
    });
  }
  return { ...state, plans: state.plans.map((p, i) => (i === index ? text : p)) };
}
