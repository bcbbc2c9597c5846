/**
 * How the chat shows a turn: its steps in words, the copy for stop reasons that end a turn
 * without a finished reply, and which turns' steps the shown messages need.
 */
import type { ErrorCode } from '../../core/errors';
import type { Message, StepRecord, StopReason, TurnId, TurnRecord } from '../../core/model';
import { describeStep, type StepSummary } from './describe-step';
import type { ErrorCopy } from '../error-copy';

/** A step of a turn, ready to show. */
export interface StepView extends StepSummary {
  step: number;
  tool: string | null;
  ok: boolean;
  /** The tool's result, for the expanded view. */
  detail: string;
}

export interface ChatError extends ErrorCopy {
  code: ErrorCode | StopReason;
  /** The turn to retry, when retrying makes sense. */
  retryTurnId: TurnId | null;
  /**
   * The specific account of a model server's fault (its own words, the address that went silent),
   * shown under the notice as text (U291).
   */
  detail?: string;
}

/** Copy for stop reasons that are not faults but still end a turn without a finished reply. */
export const STOP_COPY: Partial<Record<StopReason, ErrorCopy>> = {
  max_steps: {
    what: 'The model took too many steps without finishing its reply.',
    action: 'Press Retry, or rephrase the message more simply.',
  },
  invalid_tool_call: {
    what: 'The model kept producing steps it could not carry out.',
    action: 'Press Retry; if it keeps happening, try another model.',
  },
  context_overflow: {
    what: "The message did not fit in the model's context window, even after freeing space.",
    action: 'Send a shorter message, or lower the recall budget in Settings.',
  },
  cancelled: { what: 'You stopped this reply.', action: 'Press Retry to run the turn again.' },
};

export function stepView(
  record: Pick<StepRecord, 'step' | 'tool' | 'arguments' | 'ok' | 'result'>,
): StepView {
  const tool = record.tool ?? null;
  const summary = describeStep(tool, record.arguments ?? null, record.ok, record.result);
  return { ...summary, step: record.step, tool, ok: record.ok, detail: record.result };
}

/** The turns whose steps the chat shows: those of the shown messages, and any unfinished turn. */
export function shownTurnIds(messages: readonly Message[], turns: readonly TurnRecord[]): TurnId[] {
  const shown: Record<TurnId, true> = {};
  for (const m of messages) if (m.turnId) shown[m.turnId] = true;
  for (const t of turns) if (t.status !== 'done') shown[t.id] = true;
  return Object.keys(shown).sort();
}
