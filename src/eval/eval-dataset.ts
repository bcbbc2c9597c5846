/**
 * The evaluation's view of a memory benchmark: conversations of timestamped turns between two
 * speakers, and questions annotated with the turns that hold their answers. The LoCoMo loader
 * and the built-in probe conversation both produce this shape, so replay and scoring are shared
 * by the CLI (`npm run eval:memory`) and the in-app memory check.
 */
import type { EpochMs } from '../core/units';

/** One turn of a conversation, as it is replayed into recall storage. */
export interface EvalTurn {
  /** The dataset's id of the turn (LoCoMo `dia_id`, e.g. `D1:3`); evidence refers to it. */
  id: string;
  speaker: string;
  /** The turn's text, with a shared photo's caption appended (V2). */
  text: string;
  /** The session's start time; turns of one session are spaced a few seconds apart (V1). */
  at: EpochMs;
  /** 1-based session number. */
  session: number;
}

export interface EvalQuestion {
  id: string;
  question: string;
  answer: string;
  /** Ids of the turns that hold the answer (V4). */
  evidence: string[];
  /** LoCoMo category: 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial. */
  category: number;
}

export interface EvalConversation {
  id: string;
  /** `[speaker_a, speaker_b]`: speaker_a's turns replay as `user`, speaker_b's as `assistant`. */
  speakers: [string, string];
  turns: EvalTurn[];
  questions: EvalQuestion[];
}

export interface EvalDataset {
  /** The file name (or built-in probe name) the results name. */
  name: string;
  conversations: EvalConversation[];
}

/** The adversarial category: no answer in the conversation, so never scored (V4). */
export const ADVERSARIAL_CATEGORY = 5;

/** Readable names of the LoCoMo categories, for `by_category`. */
export const CATEGORY_NAMES: Readonly<Record<number, string>> = {
  1: 'multi_hop',
  2: 'temporal',
  3: 'open_domain',
  4: 'single_hop',
  5: 'adversarial',
};
