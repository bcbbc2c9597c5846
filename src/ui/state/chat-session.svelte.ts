/**
 * The chat of one agent, as rune state (rules U1–U9): the live message list from the store,
 * the turn in progress (streamed reply text, steps as they happen), the last context plan the
 * loop planned — the context bar shows exactly this, never a second estimate — and errors in
 * words. It applies the loop's {@link TurnEvent}s and forwards what changed to the highlights.
 */
import type { ModelFailure } from './model-manager.svelte';
import { promptReuse } from '../../core/context/prompt-reuse';
import { ReplyTiming, type ReadWait } from './read-wait';
import type { QuerySubscription } from '../../core/ports/live-queries';
import type { ContextPlan } from '../../core/context/plan-context';
import type { Pressure } from '../../core/context/queue-manager';
import type { TurnEvent, TurnOutcome, TurnTrigger } from '../../core/agent/turn-events';
import { AppError } from '../../core/errors';
import {
  conversationOf,
  type AgentId,
  type ConversationId,
  type Message,
  type MessageId,
  type StopReason,
  type TurnId,
  type TurnRecord,
} from '../../core/model';
import { errorCopy } from '../error-copy';
import { shownTurnIds, stepView, STOP_COPY, type ChatError, type StepView } from './turn-view';
import { highlightKey } from './highlights.svelte';
import type { Tokens } from '../../core/units';
import type { ChatSessionDeps } from './chat-session-deps';
import { latestTurn, type LatestTurn, type UndoableDelete } from './message-actions';
import { MessageEdits } from './message-edits.svelte';
import { keepUnchanged } from './keep-unchanged';
import { eventChanges } from './memory-changes';
import { FrameLatest } from './frame-latest';
import { keepLastPlan, readLastPlan } from './last-plan';

export { stepView, type ChatError, type StepView } from './turn-view';
export type { UndoableDelete } from './message-actions';
export type { HighlightSink } from './highlights.svelte';

export type { ChatSessionDeps, TurnRunner } from './chat-session-deps';

/** Codes whose message is the specific, plain-words account the notice points to (U291). */
const DETAIL_CODES = /^(endpoint_|reply_too_long$)/;
/** Longest detail shown under a notice. */
const DETAIL_CHARS = 600;

/** How often a tab re-checks whether another tab still runs the agent. */
const RECHECK_MS = 700;

export class ChatSession {
  agentId = $state<AgentId | null>(null);
  /** The conversation shown and run (U190); null: all of the agent's messages. */
  conversationId = $state<ConversationId | null>(null);
  /** The newest messages of the agent, oldest first (live: updates from other tabs too). */
  messages = $state.raw<Message[]>([]);
  /** Turns by id, for their status and steps. */
  turns = $state.raw<Record<TurnId, TurnRecord>>({});
  steps = $state.raw<Record<TurnId, StepView[]>>({});
  loaded = $state(false);
  /** How many older messages of the agent are not shown (U15). */
  olderCount = $state(0);

  /** True while this tab runs a turn. */
  running = $state(false);
  runningTurnId = $state<TurnId | null>(null);
  /** The `send_message` text of the step in progress. */
  streamingText = $state('');
  /** Steps of the turn in progress. */
  liveSteps = $state.raw<StepView[]>([]);
  lastPlan = $state.raw<ContextPlan | null>(null);
  /** What the running step reads new, and the wait this device's read speed predicts (A43). */
  readWait = $state.raw<ReadWait | null>(null);
  /** A message the chat view should scroll to and mark, then clear (U327). */
  focusId = $state<MessageId | null>(null);
  pressure = $state<Pressure>('ok');
  error = $state.raw<ChatError | null>(null);
  /** True when another tab is running this agent right now. */
  busyElsewhere = $state(false);
  /** The cut reply a Continue is appending to, while it runs (U292). */
  continuingId = $state<MessageId | null>(null);

  /** The newest streamed text, drawn at most once a frame (U290). */
  private readonly streamed: FrameLatest<string>;
  private subscription: QuerySubscription | null = null;
  private stepsSubscription: QuerySubscription | null = null;
  private stepsKey = '';
  private recheck: ReturnType<typeof setTimeout> | null = null;
  private controller: AbortController | null = null;
  private readonly windowSize: number;
  private readonly edits: MessageEdits;
  private readonly timing: ReplyTiming;
  /** The trigger of the turn in progress: its conversation keeps the turn's last plan (U293). */
  private triggerId: MessageId | null = null;
  /** How many of the newest messages the live query reads (grows with `showOlder`). */
  private shownLimit: number;

  constructor(private readonly deps: ChatSessionDeps) {
    this.streamed = new FrameLatest((text) => (this.streamingText = text), deps.nextFrame);
    this.windowSize = deps.windowSize ?? 200;
    this.shownLimit = this.windowSize;
    this.timing = new ReplyTiming(deps, () => this.messages);
    this.edits = new MessageEdits({
      deps,
      agentId: () => this.agentId,
      canChange: () => this.canChange,
      latest: () => this.latest,
      setError: (error, turnId) => this.setError(error, turnId),
      runTrigger: (trigger) => this.runTrigger(trigger),
    });
  }

  /** True while a delete, Undo, edit or regenerate changes the stored messages. */
  get changing(): boolean {
    return this.edits.changing;
  }

  /** The last delete, until Undo, the next delete or the next turn (U185). */
  get undoable(): UndoableDelete | null {
    return this.edits.undoable;
  }

  /** How many messages the chat shows at first, and how many more each "show earlier" adds. */
  get pageSize(): number {
    return this.windowSize;
  }

  get modelReady(): boolean {
    return this.deps.modelReady();
  }

  /** A model is on its way (downloading or loading): the chat says to wait, not to go to Models. */
  get modelLoading(): boolean {
    return this.deps.modelLoading?.() ?? false;
  }

  /** The failed or cancelled model download to report in the chat (U322), or null. */
  get modelFailure(): ModelFailure | null {
    if (this.deps.modelReady() || this.modelLoading) return null;
    return this.deps.modelFailure?.() ?? null;
  }

  /** Retry of {@link modelFailure}'s download, from the chat. */
  retryModel(): void {
    const failure = this.modelFailure;
    if (failure) this.deps.retryModel?.(failure.modelId);
  }

  /** Where "Edit" and "Regenerate" are offered: on the latest turn only (U183, U184). */
  get latest(): LatestTurn | null {
    return latestTurn(this.messages, this.turns);
  }

  /** Whether delete, edit and regenerate can run now: not while a turn runs here or elsewhere. */
  get canChange(): boolean {
    return this.agentId !== null && !this.running && !this.busyElsewhere && !this.changing;
  }

  /** Interrupted turns, newest first (each can be retried). */
  get interrupted(): TurnRecord[] {
    // Turns are the agent's; with a conversation shown, only those it triggered (a retry runs in
    // its trigger's conversation, A22, so offering another conversation's here would mislead).
    const all = this.conversationId === null;
    return Object.values(this.turns)
      .filter(
        (t) =>
          t.status === 'interrupted' &&
          (all || this.messages.some((m) => m.id === t.triggerMessageId)),
      )
      .sort((a, b) => b.startedAt - a.startedAt);
  }

  /**
   * Switches to an agent (recovers its interrupted turns) and one of its conversations, and
   * starts the live message list. Another conversation of the same agent only swaps the list.
   */
  async open(agentId: AgentId | null, conversationId: ConversationId | null = null): Promise<void> {
    // Another conversation of the same agent only swaps the list (the agent is prepared).
    const sameAgent = agentId === this.agentId && this.subscription !== null;
    if (sameAgent && (conversationId === this.conversationId || this.running)) return;
    this.close();
    this.agentId = agentId;
    this.conversationId = conversationId;
    this.messages = [];
    this.turns = {};
    this.steps = {};
    this.lastPlan = null;
    this.error = null;
    this.edits.undoable = null;
    this.loaded = false;
    this.olderCount = 0;
    this.shownLimit = this.windowSize;
    if (agentId === null) {
      this.loaded = true;
      return;
    }
    if (this.deps.prepare && !sameAgent) {
      try {
        await this.deps.prepare(agentId);
      } catch (error) {
        // Recovery and index loading help but are not required; the chat still opens.
        console.error('preparing the agent failed', error);
      }
    }
    if (this.agentId !== agentId || this.conversationId !== conversationId) return;
    this.watchMessages(agentId);
    void this.restorePlan(agentId, conversationId);
  }

  /** Shows the conversation's last plan again until a turn plans a new one (U293). */
  private async restorePlan(
    agentId: AgentId,
    conversationId: ConversationId | null,
  ): Promise<void> {
    try {
      const plan = await readLastPlan(this.deps.store, agentId, conversationId);
      const same = this.agentId === agentId && this.conversationId === conversationId;
      if (plan && same && this.lastPlan === null) this.lastPlan = plan;
    } catch (error) {
      // The bar then says "No context yet" until the next turn, as before.
      console.error('reading the last context plan failed', error);
    }
  }

  /**
   * Shows up to `windowSize` more of the older messages (U15). Resolves once they are in
   * `messages`; the list stays live.
   */
  showOlder(): Promise<void> {
    const agentId = this.agentId;
    if (!agentId || this.olderCount === 0) return Promise.resolve();
    this.shownLimit += this.windowSize;
    return new Promise((resolve) => this.watchMessages(agentId, resolve));
  }

  /**
   * Shows `message` in its conversation's chat (a recall hit's "Show in chat", U327): opens that
   * conversation (the caller selects it in the list too), widens the shown window to reach the
   * message, and sets `focusId` for the chat view to scroll to. Resolves false when the message
   * is not the open agent's.
   */
  async showMessage(
    message: Pick<Message, 'id' | 'agentId' | 'seq' | 'conversationId'>,
  ): Promise<boolean> {
    const agentId = this.agentId;
    if (agentId === null || message.agentId !== agentId) return false;
    const conversationId = conversationOf(message);
    await this.open(agentId, conversationId);
    if (this.agentId !== agentId || this.conversationId !== conversationId) return false;
    const fromTarget = await this.deps.store.countMessages(agentId, {
      conversationId,
      fromSeq: message.seq,
    });
    const pages = Math.max(1, Math.ceil(fromTarget / this.windowSize));
    this.shownLimit = Math.max(this.shownLimit, pages * this.windowSize);
    await new Promise<void>((resolve) => this.watchMessages(agentId, resolve));
    this.focusId = message.id;
    return true;
  }

  private watchMessages(agentId: AgentId, onFirst?: () => void): void {
    this.subscription?.unsubscribe();
    const limit = this.shownLimit;
    const conversationId = this.conversationId;
    const inConversation = conversationId === null ? {} : { conversationId };
    let first = onFirst;
    // One live query that only starts Dexie calls synchronously (Promise.all): a querier that
    // awaits between reads loses Dexie's dependency tracking for the later reads.
    this.subscription = this.deps.store.watch(
      () =>
        Promise.all([
          // One row per IndexedDB event: 200 rows of megabytes decoded in one result blocked the
          // page for half a second (X189).
          this.deps.store.queryMessages(agentId, {
            ...inConversation,
            reverse: true,
            limit,
            oneByOne: true,
          }),
          this.deps.store.listTurns(agentId),
        ]),
      {
        next: ([newest, turnList]) => {
          if (this.agentId !== agentId || this.conversationId !== conversationId) {
            first?.();
            return;
          }
          // Unchanged rows keep their objects, so their bubbles are not rendered again (X190).
          const messages = keepUnchanged(this.messages, [...newest].reverse());
          const turns: Record<TurnId, TurnRecord> = {};
          for (const t of turnList) turns[t.id] = t;
          this.messages = messages;
          this.deps.speeds?.note(messages);
          this.turns = turns;
          // Seqs run 1, 2, 3… per agent, so the oldest shown seq says how many come before it; no
          // count query on every refresh. A short page means there is nothing older.
          // Seqs are per agent across its conversations: a full page of one conversation counts.
          if (newest.length < limit) this.olderCount = 0;
          else if (conversationId === null)
            this.olderCount = Math.max(0, (messages[0]?.seq ?? 1) - 1);
          else void this.countOlder(agentId, conversationId, messages[0]?.seq ?? 1);
          this.loaded = true;
          first?.();
          first = undefined;
          this.watchSteps(agentId, shownTurnIds(messages, turnList));
          void this.checkElsewhere(turns);
        },
        error: (error: unknown) => {
          this.loaded = true;
          this.setError(error, null);
          first?.();
          first = undefined;
        },
      },
    );
  }

  private async countOlder(
    agentId: AgentId,
    conversationId: ConversationId,
    oldestSeq: number,
  ): Promise<void> {
    try {
      const older = await this.deps.store.countMessages(agentId, {
        conversationId,
        toSeq: oldestSeq - 1,
      });
      if (this.agentId === agentId && this.conversationId === conversationId)
        this.olderCount = older;
    } catch (error) {
      console.error('counting older messages failed', error);
    }
  }

  close(): void {
    this.subscription?.unsubscribe();
    this.subscription = null;
    this.stepsSubscription?.unsubscribe();
    this.stepsSubscription = null;
    this.stepsKey = '';
  }

  /** Keeps the steps of the shown turns live; resubscribes only when that set of turns changes. */
  private watchSteps(agentId: AgentId, turnIds: TurnId[]): void {
    const key = turnIds.join(',');
    if (key === this.stepsKey && this.stepsSubscription) return;
    this.stepsKey = key;
    this.stepsSubscription?.unsubscribe();
    this.stepsSubscription = this.deps.store.watch(
      () => Promise.all(turnIds.map((id) => this.deps.store.listSteps(id))),
      {
        next: (lists) => {
          if (this.agentId !== agentId) return;
          const steps: Record<TurnId, StepView[]> = {};
          turnIds.forEach((id, i) => {
            steps[id] = [...(lists[i] ?? [])].sort((a, b) => a.step - b.step).map(stepView);
          });
          this.steps = steps;
        },
        error: (error: unknown) => console.error('steps live query failed', error),
      },
    );
  }

  private async checkElsewhere(turns: Record<TurnId, TurnRecord>): Promise<void> {
    const agentId = this.agentId;
    if (this.running || !agentId) {
      this.busyElsewhere = false;
      return;
    }
    const runningHere = Object.values(turns).some((t) => t.status === 'running');
    const holder =
      runningHere || this.busyElsewhere ? await this.deps.lock.holder?.(agentId) : null;
    this.busyElsewhere = !this.running && !!holder && this.agentId === agentId;
    // The other tab frees the lock just after its last write, so no live query fires then:
    // look again shortly until it is free.
    if (this.busyElsewhere && !this.recheck) {
      this.recheck = setTimeout(() => {
        this.recheck = null;
        void this.checkElsewhere(this.turns);
      }, RECHECK_MS);
    }
  }

  /**
   * Sends a user message and runs the turn. Returns false when nothing was stored — no model, or
   * another tab took the agent's lock first (X5) — so the composer keeps the draft.
   */
  async send(text: string): Promise<boolean> {
    const trimmed = text.trim();
    if (trimmed === '' || this.running || !this.agentId) return false;
    if (!this.deps.modelReady()) {
      this.setError(new AppError('model_not_loaded', 'No chat model is loaded.'), null);
      return false;
    }
    return this.runTrigger({ type: 'user_message', text: trimmed });
  }

  async retry(turnId: TurnId): Promise<void> {
    if (this.running || !this.agentId) return;
    if (!this.deps.modelReady()) {
      this.setError(new AppError('model_not_loaded', 'No chat model is loaded.'), turnId);
      return;
    }
    await this.runTrigger({ type: 'retry', turnId });
  }

  /** Interrupts the turn in progress; it ends with stop reason `cancelled`. */
  stop(): void {
    this.controller?.abort();
  }

  dismissError(): void {
    this.error = null;
  }

  /** Deletes one bubble's messages (U185); "Undo" can bring them back. */
  deleteMessage(id: MessageId | readonly MessageId[]): Promise<void> {
    return this.edits.deleteMessages(typeof id === 'string' ? [id] : id);
  }

  /** Puts the last deleted message back whole, searchable again (U185). */
  undoDelete(): Promise<void> {
    return this.edits.undoDelete();
  }

  dismissUndo(): void {
    this.edits.undoable = null;
  }

  /** Edit-and-resend the latest user message (U183). */
  editAndResend(id: MessageId, text: string): Promise<boolean> {
    return this.edits.editAndResend(id, text);
  }

  /** Regenerate the latest reply (U184). */
  regenerate(id: MessageId): Promise<boolean> {
    return this.edits.regenerate(id);
  }

  /** Shows and keeps version `to` of the latest reply (U331). */
  switchVersion(to: number): Promise<boolean> {
    return this.edits.switchVersion(to);
  }

  /**
   * Continue (A41, U292): asks the model for the rest of a reply cut off at the length limit;
   * the chat shows the new text appended to that reply.
   */
  async continueReply(id: MessageId): Promise<boolean> {
    if (this.running || !this.agentId || !this.canChange) return false;
    if (!this.deps.modelReady()) {
      this.setError(new AppError('model_not_loaded', 'No chat model is loaded.'), null);
      return false;
    }
    this.continuingId = id;
    try {
      return await this.runTrigger({ type: 'continue', messageId: id });
    } finally {
      this.continuingId = null;
    }
  }

  /** Runs a turn; true when its trigger was stored (a turn record exists), false otherwise. */
  private async runTrigger(trigger: TurnTrigger): Promise<boolean> {
    const agentId = this.agentId;
    if (!agentId) return false;
    const controller = new AbortController();
    this.controller = controller;
    this.running = true;
    this.busyElsewhere = false;
    this.error = null;
    // A new turn makes the last delete final: restoring it behind newer messages would put an
    // old message back into a window that has moved on (ADR 0104).
    this.edits.undoable = null;
    this.clearStreamed();
    this.liveSteps = [];
    this.runningTurnId = trigger.type === 'retry' ? trigger.turnId : null;
    const planBefore = this.lastPlan;
    this.triggerId = null;
    try {
      const outcome = await this.deps.run(agentId, trigger, {
        onEvent: (event) => this.apply(event),
        signal: controller.signal,
        recallCapFor: (model) => this.recallCapFor(model),
        ...(this.conversationId === null ? {} : { conversationId: this.conversationId }),
      });
      this.finish(outcome.stopReason, outcome.error, outcome.turnId);
      return outcome.turnId !== null;
    } catch (error) {
      // runTurn never rejects; a runner that does is reported like a fault of the turn.
      this.setError(error, this.runningTurnId);
      return this.runningTurnId !== null;
    } finally {
      this.running = false;
      this.controller = null;
      this.clearStreamed();
      this.liveSteps = [];
      this.runningTurnId = null;
      const plan = this.lastPlan;
      if (plan && plan !== planBefore && this.triggerId) {
        keepLastPlan(this.deps.store, agentId, this.triggerId, plan).catch((error: unknown) =>
          console.error('keeping the context plan failed', error),
        );
      }
      this.deps.onGenerationEnded?.();
    }
  }

  /** A fast reply's recall cap for `model` (A44): what this device reads in half the wait aimed for. */
  recallCapFor(model: string | null): Tokens | null {
    return this.timing.recallCapFor(model);
  }

  /** Applies one loop event to the state (public for tests and for replaying a stream). */
  apply(event: TurnEvent): void {
    const highlights = this.deps.highlights;
    switch (event.type) {
      case 'turn.started':
        this.runningTurnId = event.turnId;
        this.triggerId = event.triggerMessageId;
        break;
      case 'context.planned': {
        const before = this.lastPlan?.memories.map((m) => m.id) ?? [];
        // Which part of this request the engine keeps from the step before (C18).
        event.plan.reuse = promptReuse(this.lastPlan, event.plan, event);
        this.lastPlan = event.plan;
        this.readWait = this.timing.waitFor(event.plan.reuse.fresh, event.model);
        this.pressure = event.pressure;
        const pagedIn = event.plan.memories.map((m) => m.id).filter((id) => !before.includes(id));
        highlights?.mark(highlightKey.context());
        if (pagedIn.length > 0) {
          highlights?.mark(
            pagedIn.map(highlightKey.memory),
            `${pagedIn.length} ${pagedIn.length === 1 ? 'memory was' : 'memories were'} paged into the context.`,
          );
        }
        break;
      }
      case 'message.streamed':
        this.streamed.push(event.text);
        break;
      case 'tool.called':
        this.liveSteps = [
          ...this.liveSteps,
          stepView({
            step: event.step,
            tool: event.tool ?? undefined,
            arguments: event.arguments ?? undefined,
            ok: event.ok,
            result: event.result,
          }),
        ];
        break;
      case 'memory.changed':
      case 'summary.created':
        for (const change of eventChanges(event)) highlights?.mark(change.keys, change.note);
        break;
      case 'turn.stopped':
        this.finish(event.stopReason, event.error, event.turnId);
        break;
    }
  }

  /** Clears the streamed text, including a frame still to come. */
  private clearStreamed(): void {
    this.streamed.cancel();
    this.streamingText = '';
  }

  private finish(stopReason: StopReason, error: TurnOutcome['error'], turnId: TurnId | null): void {
    if (stopReason === 'end_turn') {
      this.error = null;
      return;
    }
    if (stopReason === 'error' && error) {
      this.setError(AppError.fromWire(error), turnId);
      return;
    }
    const copy = STOP_COPY[stopReason] ?? errorCopy('internal');
    this.error = { ...copy, code: stopReason, retryTurnId: turnId };
  }

  private setError(error: unknown, turnId: TurnId | null): void {
    const e = AppError.from(error);
    this.error = {
      ...errorCopy(e.code),
      code: e.code,
      retryTurnId: e.code === 'model_not_loaded' || e.code === 'agent_busy' ? null : turnId,
      ...(DETAIL_CODES.test(e.code) && e.message
        ? { detail: e.message.slice(0, DETAIL_CHARS) }
        : {}),
    };
    if (e.code === 'agent_busy') this.busyElsewhere = true;
  }
}
