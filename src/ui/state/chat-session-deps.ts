/**
 * What a chat session is built from (the composition root fills it): the store and search, the
 * turn runner and lock, and what it needs to know of the chat model.
 */
import type { DeleteMessagesDeps } from '../../core/agent/delete-messages';
import type { TurnEvent, TurnOutcome, TurnTrigger } from '../../core/agent/turn-events';
import type { AgentId, ConversationId } from '../../core/model';
import type { MemoryStore } from '../../core/ports/memory-store';
import type { Tokens } from '../../core/units';
import type { TurnLock } from '../../core/ports/turn-lock';
import type { HighlightSink } from './highlights.svelte';
import type { ModelFailure } from './model-manager.svelte';
import type { ReadSpeedSource } from './read-speed-book';

/** Runs one turn of an agent (main.ts wraps the core's `runTurn` with its deps). */
export type TurnRunner = (
  agentId: AgentId,
  trigger: TurnTrigger,
  options: {
    onEvent: (event: TurnEvent) => void;
    signal: AbortSignal;
    /** The conversation the turn runs in (A22); absent: the agent's most recent one. */
    conversationId?: ConversationId;
    /**
     * The recall cap of a fast reply for the model that will answer (A44), null for none: the
     * runner asks once that model is loaded.
     */
    recallCapFor?: (model: string | null) => Tokens | null;
  },
) => Promise<TurnOutcome>;

export interface ChatSessionDeps {
  store: MemoryStore;
  /** Deleting a message takes it out of search too, and Undo puts it back (U185, ADR 0143). */
  search: DeleteMessagesDeps['search'];
  run: TurnRunner;
  lock: TurnLock;
  /** Whether a chat model is loaded (the chat says "go to Models" when not). */
  modelReady: () => boolean;
  /** Whether a chat model is downloading or loading now (the chat says so instead, U206). */
  modelLoading?: () => boolean;
  /**
   * The chat model's last download or load that failed or was cancelled, while none is loaded
   * (U322): the chat says which model, why, and offers Retry, where the user is.
   */
  modelFailure?: () => ModelFailure | null;
  /** Tries that download again (the chat's Retry, U322). */
  retryModel?: (modelId: string) => void;
  /**
   * Prepares an agent on open: marks its interrupted turns (core `recoverInterruptedTurns`) and
   * loads its search indexes.
   */
  prepare?: (agentId: AgentId) => Promise<void>;
  highlights?: HighlightSink;
  /** "Fast replies" is chosen on this device: a turn's recall fits this device's read speed (A44). */
  fastReplies?: () => boolean;
  /** This device's read speeds, remembered across chats (A43); absent: this chat's replies only. */
  speeds?: ReadSpeedSource;
  /** Called whenever a turn ends, so a queued app update can install (P8). */
  onGenerationEnded?: () => void;
  /** Messages shown in the chat at first (the newest), and how many more "show earlier" adds. */
  windowSize?: number;
  /**
   * Runs `callback` before the next paint (U290); `requestAnimationFrame` in a page, a microtask
   * where there is none (Node tests).
   */
  nextFrame?: (callback: () => void) => void;
}
