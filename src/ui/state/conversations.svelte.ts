/**
 * The conversation list of the active agent, as rune state (U187–U189, ADR 0155): a live list
 * (other tabs' writes too), the selected conversation (remembered per agent), "New chat",
 * rename, and delete with Undo through the core's `deleteConversation`/`restoreConversation`,
 * so recall search forgets and finds the messages again with the rows.
 */
import type { QuerySubscription } from '../../core/ports/live-queries';
import {
  deleteConversation,
  restoreConversation,
  type DeleteConversationDeps,
} from '../../core/agent/delete-conversation';
import { firstExchange, type FirstExchange } from '../../core/agent/suggest-title';
import { AppError } from '../../core/errors';
import {
  defaultConversationId,
  type AgentId,
  type Conversation,
  type ConversationId,
} from '../../core/model';
import type { Clock } from '../../core/ports/clock';
import type { DeletedConversation, MemoryStore } from '../../core/ports/memory-store';
import type { TurnLock } from '../../core/ports/turn-lock';
import { describeError } from '../error-copy';
import {
  checkTitle,
  filterByTitle,
  NEW_CHAT_TITLE,
  sortConversations,
  titleFromMessage,
} from './conversation-list';

/** The setting that remembers an agent's selected conversation across reloads. */
export const selectedConversationKey = (agentId: AgentId): string => `ui.conversation:${agentId}`;

export interface ConversationsDeps {
  store: Pick<
    MemoryStore,
    | 'apply'
    | 'listConversations'
    | 'getConversation'
    | 'getSetting'
    | 'setSetting'
    | 'deleteConversation'
    | 'restoreConversation'
    | 'watch'
    | 'queryMessages'
  >;
  search: DeleteConversationDeps['search'];
  clock: Clock;
  /** A fresh id (the conversation's id is `<agentId>:<id>`). */
  newId: () => string;
  /** Delete and Undo run under the agent's turn lock, never under another tab's turn (X5). */
  lock: TurnLock;
  /** Asks the loaded model for a title (U329); absent where no model can. */
  suggestTitle?: (first: FirstExchange) => Promise<string>;
  /** Whether a chat model is loaded now, so "Suggest" can be offered. */
  modelReady?: () => boolean;
}

export class ConversationsState {
  agentId = $state<AgentId | null>(null);
  /** The agent's conversations, most recent first. */
  list = $state.raw<Conversation[]>([]);
  selectedId = $state<ConversationId | null>(null);
  /** The search-by-title box. */
  query = $state('');
  /** True once the list and the selection of `agentId` are known. */
  loaded = $state(false);
  /** The last deleted conversation, until Undo, Dismiss or the next delete. */
  undoable = $state.raw<DeletedConversation | null>(null);
  /** The last failure, in words. */
  error = $state<string | null>(null);
  /** True while a delete or an Undo runs. */
  changing = $state(false);

  private subscription: QuerySubscription | null = null;

  constructor(private readonly deps: ConversationsDeps) {}

  /** The selected conversation when `agentId`'s list is the one open, else undefined (A25). */
  selectedFor(agentId: AgentId): ConversationId | undefined {
    return this.agentId === agentId ? (this.selectedId ?? undefined) : undefined;
  }

  /** The conversations whose title matches the search box, most recent first. */
  get shown(): Conversation[] {
    return filterByTitle(this.list, this.query);
  }

  get selected(): Conversation | null {
    return this.list.find((c) => c.id === this.selectedId) ?? null;
  }

  /**
   * Opens an agent's list: the remembered conversation, else the most recent. An agent with no
   * conversation yet gets its first one, so the chat always names the conversation it runs in.
   */
  async open(agentId: AgentId | null): Promise<void> {
    if (agentId === this.agentId && (this.subscription || agentId === null)) return;
    this.close();
    this.agentId = agentId;
    this.list = [];
    this.selectedId = null;
    this.query = '';
    this.undoable = null;
    this.error = null;
    this.loaded = false;
    if (agentId === null) {
      this.loaded = true;
      return;
    }
    try {
      let list = await this.deps.store.listConversations(agentId);
      if (this.agentId !== agentId) return;
      if (list.length === 0) {
        const now = this.deps.clock.now();
        const first: Conversation = {
          id: defaultConversationId(agentId),
          agentId,
          title: NEW_CHAT_TITLE,
          createdAt: now,
          updatedAt: now,
        };
        await this.deps.store.apply({ conversations: [first] });
        list = [first];
      }
      const remembered = await this.deps.store.getSetting<ConversationId>(
        selectedConversationKey(agentId),
      );
      if (this.agentId !== agentId) return;
      this.list = sortConversations(list);
      this.selectedId = this.list.some((c) => c.id === remembered)
        ? (remembered ?? null)
        : (this.list[0]?.id ?? null);
    } catch (error) {
      this.fail(error);
      this.selectedId = defaultConversationId(agentId);
    }
    this.loaded = true;
    this.watch(agentId);
  }

  close(): void {
    this.subscription?.unsubscribe();
    this.subscription = null;
  }

  private watch(agentId: AgentId): void {
    this.subscription = this.deps.store.watch(() => this.deps.store.listConversations(agentId), {
      next: (list) => {
        if (this.agentId !== agentId) return;
        this.list = sortConversations(list);
        // Deleted elsewhere (another tab): show the most recent one instead.
        if (!list.some((c) => c.id === this.selectedId) && list.length > 0 && !this.changing)
          this.selectedId = this.list[0]?.id ?? null;
      },
      error: (error: unknown) => console.error('conversations live query failed', error),
    });
  }

  /** Shows a conversation; the choice is remembered for the next visit. */
  async select(id: ConversationId): Promise<void> {
    const agentId = this.agentId;
    if (!agentId || !this.list.some((c) => c.id === id)) return;
    this.selectedId = id;
    this.error = null;
    try {
      await this.deps.store.setSetting(selectedConversationKey(agentId), id);
    } catch (error) {
      this.fail(error);
    }
  }

  /** "New chat": an empty conversation (the agent's core memory, no queue), selected. */
  async create(): Promise<Conversation | null> {
    const agentId = this.agentId;
    if (!agentId) return null;
    const now = this.deps.clock.now();
    const conversation: Conversation = {
      id: `${agentId}:${this.deps.newId()}`,
      agentId,
      title: NEW_CHAT_TITLE,
      createdAt: now,
      updatedAt: now,
    };
    try {
      await this.deps.store.apply({ conversations: [conversation] });
    } catch (error) {
      this.fail(error);
      return null;
    }
    this.list = sortConversations([
      ...this.list.filter((c) => c.id !== conversation.id),
      conversation,
    ]);
    this.query = '';
    await this.select(conversation.id);
    return conversation;
  }

  /**
   * Renames a conversation. Resolves with null when saved, or the reason in words (empty,
   * too long, gone) — nothing is written then.
   */
  /** Whether the rename form can offer "Suggest" (a model is loaded to write it). */
  get canSuggest(): boolean {
    return this.deps.suggestTitle !== undefined && (this.deps.modelReady?.() ?? false);
  }

  /**
   * A title the loaded model writes for conversation `id` from its first exchange (U329), for
   * the rename field — nothing is saved until the user saves it. Runs under the agent's turn
   * lock, so it never shares the engine with a turn; a failure comes back in words.
   */
  async suggestTitle(
    id: ConversationId,
  ): Promise<{ ok: true; title: string } | { ok: false; error: string }> {
    const agentId = this.agentId;
    const suggest = this.deps.suggestTitle;
    if (!agentId || !suggest)
      return { ok: false, error: 'No chat model can suggest a title here.' };
    const release = await this.deps.lock.acquire(agentId);
    if (!release) {
      return { ok: false, error: 'A reply is being written; try again when it has finished.' };
    }
    try {
      const first = await firstExchange(this.deps.store, agentId, id);
      if (!first) return { ok: false, error: 'This chat has no message to name it after yet.' };
      return { ok: true, title: await suggest(first) };
    } catch (error) {
      return { ok: false, error: describeError(error).what };
    } finally {
      release();
    }
  }

  async rename(id: ConversationId, input: string): Promise<string | null> {
    const check = checkTitle(input);
    if (!check.ok) return check.error;
    try {
      const found = await this.deps.store.getConversation(id);
      if (!found || found.agentId !== this.agentId) return 'This conversation no longer exists.';
      // The title is not activity: `updatedAt` stays, so a rename does not reorder the list.
      const renamed = { ...found, title: check.title };
      await this.deps.store.apply({ conversations: [renamed] });
      this.list = sortConversations(this.list.map((c) => (c.id === id ? renamed : c)));
      return null;
    } catch (error) {
      return describeError(error).what;
    }
  }

  /**
   * After the first message of a conversation still titled "New chat": names it after that
   * message (the user can rename it). A title the user chose is never replaced.
   */
  async nameFromFirstMessage(id: ConversationId, text: string): Promise<void> {
    const title = titleFromMessage(text);
    if (title === null) return;
    try {
      const found = await this.deps.store.getConversation(id);
      if (!found || found.title !== NEW_CHAT_TITLE) return;
      const renamed = { ...found, title };
      await this.deps.store.apply({ conversations: [renamed] });
      if (this.agentId === found.agentId)
        this.list = sortConversations(this.list.map((c) => (c.id === id ? renamed : c)));
    } catch (error) {
      console.warn('naming the conversation failed', error);
    }
  }

  /**
   * Deletes a conversation with its messages and summaries, and takes its messages out of recall
   * search (A24); Undo can bring it all back. Deleting the shown one shows the most recent
   * other; deleting the last one starts a new chat.
   */
  async remove(id: ConversationId): Promise<boolean> {
    const agentId = this.agentId;
    if (!agentId || this.changing) return false;
    const deleted = await this.locked(agentId, () => deleteConversation(this.deps, id));
    if (!deleted) return false;
    this.undoable = deleted;
    this.list = this.list.filter((c) => c.id !== id);
    if (this.selectedId === id || this.selectedId === null) {
      const next = this.list[0];
      if (next) await this.select(next.id);
      else await this.create();
    }
    return true;
  }

  /** Puts the last deleted conversation back, searchable again, and shows it. */
  async undo(): Promise<boolean> {
    const undo = this.undoable;
    const agentId = this.agentId;
    if (!undo || !agentId || undo.conversation.agentId !== agentId || this.changing) return false;
    const done = await this.locked(agentId, async () => {
      await restoreConversation(this.deps, undo);
      return true;
    });
    if (!done) return false;
    this.undoable = null;
    this.list = sortConversations([
      ...this.list.filter((c) => c.id !== undo.conversation.id),
      undo.conversation,
    ]);
    await this.select(undo.conversation.id);
    return true;
  }

  dismissUndo(): void {
    this.undoable = null;
  }

  dismissError(): void {
    this.error = null;
  }

  private async locked<T>(agentId: AgentId, work: () => Promise<T>): Promise<T | null> {
    this.changing = true;
    this.error = null;
    try {
      const release = await this.deps.lock.acquire(agentId);
      if (!release) {
        throw new AppError('agent_busy', 'This agent is running in another tab.');
      }
      try {
        return await work();
      } finally {
        await release();
      }
    } catch (error) {
      this.fail(error);
      return null;
    } finally {
      this.changing = false;
    }
  }

  private fail(error: unknown): void {
    const copy = describeError(error);
    this.error = `${copy.what} ${copy.action}`.trim();
  }
}
