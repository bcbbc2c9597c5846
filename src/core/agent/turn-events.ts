/**
 * What drives a turn and what a turn reports (A3, A8). Triggers are the loop's inputs (seed
 * paper §2.4 events); `TurnEvent` is the typed stream the UI renders (`type` discriminant).
 */
import type { ContextPlan } from '../context/plan-context';
import type { Pressure } from '../context/queue-manager';
import type { WireError } from '../errors';
import type { MessageId, StopReason, Summary, TurnId } from '../model';
import type { MemoryChange } from '../tools/tool';
import type { EpochMs } from '../units';

/** Kinds of non-user events that can start a turn (memory pressure is inserted, never a trigger). */
export type TriggerEventKind = 'session_start' | 'document_imported' | 'note';

export type TurnTrigger =
  | { type: 'user_message'; text: string }
  | { type: 'event'; kind: TriggerEventKind; text: string }
  /** Runs an interrupted turn again from its stored trigger message (A17). */
  | { type: 'retry'; turnId: TurnId }
  /** Goes on from a reply cut off at the length limit (A41); the new text continues that one. */
  | { type: 'continue'; messageId: MessageId };

export type TurnEvent =
  | { type: 'turn.started'; turnId: TurnId; triggerMessageId: MessageId; at: EpochMs }
  | {
      type: 'context.planned';
      turnId: TurnId;
      step: number;
      plan: ContextPlan;
      pressure: Pressure;
      /** How the engine reuses a prefix (the engine port's `prefixCache`), for the panel's reuse line. */
      prefixCache: boolean;
      /** The engine's loaded model: whose read speed predicts this step's wait (A43). */
      model: string | null;
    }
  | { type: 'message.streamed'; turnId: TurnId; step: number; text: string; done: boolean }
  | {
      type: 'tool.called';
      turnId: TurnId;
      step: number;
      tool: string | null;
      arguments: Record<string, unknown> | null;
      ok: boolean;
      result: string;
      heartbeat: boolean;
    }
  | { type: 'memory.changed'; turnId: TurnId; step: number; changes: MemoryChange[] }
  | {
      type: 'summary.created';
      turnId: TurnId;
      summary: Summary;
      evictedIds: MessageId[];
      /** The AppError code that made the extractive fallback run, when it did. */
      fallback?: string;
    }
  | {
      type: 'turn.stopped';
      turnId: TurnId | null;
      stopReason: StopReason;
      steps: number;
      error?: WireError;
      at: EpochMs;
    };

/** How a turn ended, as `runTurn` resolves it (it never rejects). */
export interface TurnOutcome {
  turnId: TurnId | null;
  stopReason: StopReason;
  steps: number;
  /** What `send_message` said, in order. */
  replies: string[];
  error?: WireError;
}
