/**
 * The shape of a memory tool: its spec (what the model sees and the step schema is built from)
 * and its `run`, which validates nothing itself (the registry validated the arguments) and
 * returns either a result with the writes to commit, or one sentence of feedback (lane 2).
 * Tools never write: the loop commits their `changes` with the step record in one transaction.
 */
import type { Agent, ConversationId, CoreBlock, TurnId, UntrustedRead } from '../model';
import type { IdSource, Clock } from '../ports/clock';
import type { MemorySearch } from '../ports/memory-search';
import type { ChangeSet, MemoryStore } from '../ports/memory-store';
import type { ToolSpec } from '../prompts/tool-spec';

export type { ParamSpec, ParamType, ToolSpec } from '../prompts/tool-spec';

/** What a tool changed, for the `memory.changed` event and the memory panels. */
export type MemoryChange =
  | { type: 'core'; label: string; version: number; value: string }
  | { type: 'archival'; passageId: string; text: string };

export type ToolOutcome =
  | {
      type: 'ok';
      /** What the model reads back (for `send_message`: a short receipt). */
      result: string;
      changes?: ChangeSet;
      memory?: MemoryChange[];
      /** The text shown to the user (`send_message`). */
      reply?: string;
      /** Document passages this result showed the model (C15). */
      read?: UntrustedRead[];
    }
  | { type: 'invalid'; feedback: string };

export interface ToolContext {
  agent: Agent;
  /** The turn's conversation (recall hits from others are named, A23); absent: the first one. */
  conversationId?: ConversationId;
  blocks: CoreBlock[];
  store: MemoryStore;
  search: MemorySearch;
  clock: Clock;
  ids: IdSource;
  turnId: TurnId;
  step: number;
  /** Document passages the turn has read so far, newest first (C15). */
  untrusted?: readonly UntrustedRead[];
}

export interface Tool {
  spec: ToolSpec;
  run(args: Record<string, unknown>, context: ToolContext): Promise<ToolOutcome>;
}
