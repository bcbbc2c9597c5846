/**
 * The changes a user makes to a chat's stored messages (U183–U185, ADR 0104): delete with Undo,
 * edit-and-resend and regenerate. Each runs under the agent's turn lock (X5), so it never races
 * a turn in another tab; edit and regenerate put the deleted messages back when the new turn
 * cannot start. The chat session owns one and shows its state.
 */
import {
  deleteMessages,
  restoreMessages,
  type DeletedMessages,
  type DeleteMessagesDeps,
} from '../../core/agent/delete-messages';
import {
  deleteReplyVersion,
  restoreReplyVersion,
  shelveReply,
  switchReplyVersion,
  unshelveReply,
  type DeletedVersion,
} from '../../core/agent/reply-versions';
import type { TurnTrigger } from '../../core/agent/turn-events';
import { AppError } from '../../core/errors';
import {
  conversationOf,
  type AgentId,
  type Message,
  type MessageId,
  type TurnId,
} from '../../core/model';
import type { MemoryStore } from '../../core/ports/memory-store';
import type { TurnLock } from '../../core/ports/turn-lock';
import { highlightKey, type HighlightSink } from './highlights.svelte';
import type { LatestTurn, UndoableDelete } from './message-actions';

/** What the edits need from the chat session that owns them. */
export interface MessageEditsHost {
  deps: {
    store: MemoryStore;
    search: DeleteMessagesDeps['search'];
    lock: TurnLock;
    modelReady: () => boolean;
    highlights?: HighlightSink;
  };
  agentId(): AgentId | null;
  /** Not while a turn runs here or elsewhere, nor while another change runs. */
  canChange(): boolean;
  latest(): LatestTurn | null;
  setError(error: unknown, turnId: TurnId | null): void;
  /** Runs a turn; true when its trigger was stored. */
  runTrigger(trigger: TurnTrigger): Promise<boolean>;
}

type DeletedWithVersion = DeletedMessages & { version?: DeletedVersion };

export class MessageEdits {
  /** True while a delete, Undo, edit or regenerate changes the stored messages. */
  changing = $state(false);
  /** The last delete, until Undo, the next delete or the next turn (U185). */
  undoable = $state.raw<UndoableDelete | null>(null);

  constructor(private readonly host: MessageEditsHost) {}

  /**
   * Deletes messages (one bubble: a reply and its continuations, A41) from the store, search and
   * the context window (U185); "Undo" can bring them back until the next delete or turn. The
   * latest reply, when it has other versions, is deleted as one version (U331).
   */
  async deleteMessages(ids: readonly MessageId[]): Promise<void> {
    const agentId = this.host.agentId();
    if (!agentId || !this.host.canChange()) return;
    const latest = this.host.latest();
    // A reply with other versions: the shown one goes, the newest other takes its place (U331).
    const ofVersion = latest?.versions && ids.includes(latest.regenerateId ?? '');
    const deleted = await this.change(agentId, async (): Promise<DeletedWithVersion> => {
      if (!ofVersion) return deleteMessages(this.host.deps, agentId, [...ids]);
      const { removed, undo } = await deleteReplyVersion(
        this.host.deps,
        agentId,
        latest.trigger.id,
      );
      return { agentId, ...removed, version: undo };
    });
    if (deleted && deleted.messages.length > 0) {
      const { version, ...rows } = deleted;
      this.undoable = {
        deleted: rows,
        summarised: rows.messages.some((m) => !m.inContext),
        ...(version ? { version } : {}),
      };
      this.host.deps.highlights?.mark(highlightKey.queue());
    }
  }

  /** Puts the last deleted messages back whole, searchable again (U185). */
  async undoDelete(): Promise<void> {
    const undo = this.undoable;
    const agentId = this.host.agentId();
    if (!undo || !agentId || undo.deleted.agentId !== agentId || !this.host.canChange()) return;
    const done = await this.change(agentId, async () => {
      if (undo.version)
        await restoreReplyVersion(this.host.deps, agentId, undo.deleted, undo.version);
      else await restoreMessages(this.host.deps, undo.deleted);
      return true;
    });
    if (done) {
      this.undoable = null;
      this.host.deps.highlights?.mark(highlightKey.queue());
    }
  }

  /**
   * Edit-and-resend (U183, ADR 0104): deletes the latest user message and everything after it,
   * then sends `text` as a new turn. When the new turn cannot start (no model, another tab has
   * the agent), the deleted messages are put back and false is returned, so nothing is lost.
   */
  async editAndResend(id: MessageId, text: string): Promise<boolean> {
    const trimmed = text.trim();
    const agentId = this.host.agentId();
    const latest = this.host.latest();
    if (trimmed === '' || !agentId || !this.host.canChange() || latest?.editId !== id) return false;
    if (!this.host.deps.modelReady()) {
      this.host.setError(new AppError('model_not_loaded', 'No chat model is loaded.'), null);
      return false;
    }
    return this.replace(agentId, latest.trigger, latest.trigger.seq, {
      type: 'user_message',
      text: trimmed,
    });
  }

  /**
   * Regenerate (U184, U331): the latest turn's reply and its tool steps leave the chat and memory
   * as a version the trigger keeps, then the turn runs again for the same message; the version
   * comes back when the new turn cannot start.
   */
  async regenerate(id: MessageId): Promise<boolean> {
    const agentId = this.host.agentId();
    const latest = this.host.latest();
    if (!agentId || !this.host.canChange() || latest?.regenerateId !== id) return false;
    if (!this.host.deps.modelReady()) {
      this.host.setError(new AppError('model_not_loaded', 'No chat model is loaded.'), null);
      return false;
    }
    this.undoable = null;
    const triggerId = latest.trigger.id;
    const held = await this.change(agentId, () => shelveReply(this.host.deps, agentId, triggerId));
    if (held === null || this.host.agentId() !== agentId) return false;
    const started = await this.host.runTrigger({ type: 'retry', turnId: latest.turnId });
    if (!started && held.messages.length > 0) {
      try {
        await unshelveReply(this.host.deps, agentId, triggerId, held);
      } catch (error) {
        console.error('putting the reply back failed', error);
      }
    }
    return started;
  }

  /**
   * Shows and keeps version `to` (1-based, oldest first) of the latest reply (U331): the shown
   * version leaves the chat, the queue and search, and `to` takes its place in all three.
   */
  async switchVersion(to: number): Promise<boolean> {
    const agentId = this.host.agentId();
    const latest = this.host.latest();
    if (!agentId || !this.host.canChange() || !latest?.versions) return false;
    if (to < 1 || to > latest.versions.count || to === latest.versions.shown) return false;
    this.undoable = null;
    const triggerId = latest.trigger.id;
    const done = await this.change(agentId, () =>
      switchReplyVersion(this.host.deps, agentId, triggerId, to),
    );
    return done === true;
  }

  /**
   * Deletes the messages of `latest`'s conversation from `fromSeq` on (the latest turn's), then
   * runs `trigger`; puts them back if the turn never starts.
   */
  private async replace(
    agentId: AgentId,
    latest: Message,
    fromSeq: number,
    trigger: TurnTrigger,
  ): Promise<boolean> {
    this.undoable = null;
    const deleted = await this.change(agentId, async () => {
      const after = await this.host.deps.store.queryMessages(agentId, { fromSeq });
      const ids = after
        .filter((m) => conversationOf(m) === conversationOf(latest))
        .map((m) => m.id);
      return deleteMessages(this.host.deps, agentId, ids);
    });
    if (!deleted || this.host.agentId() !== agentId) return false;
    const started = await this.host.runTrigger(trigger);
    if (!started && deleted.messages.length > 0) {
      try {
        await restoreMessages(this.host.deps, deleted);
      } catch (error) {
        console.error('putting the messages back failed', error);
      }
    }
    return started;
  }

  /**
   * Runs a change of the stored messages under the agent's turn lock (X5), so it never races a
   * turn in another tab. Resolves with its result, or null (error shown) when it could not run.
   */
  private async change<T>(agentId: AgentId, work: () => Promise<T>): Promise<T | null> {
    this.changing = true;
    try {
      const release = await this.host.deps.lock.acquire(agentId);
      if (!release) {
        this.host.setError(
          new AppError('agent_busy', 'This agent is running in another tab.'),
          null,
        );
        return null;
      }
      try {
        return await work();
      } finally {
        await release();
      }
    } catch (error) {
      this.host.setError(error, null);
      return null;
    } finally {
      this.changing = false;
    }
  }
}
