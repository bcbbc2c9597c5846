/**
 * An in-memory {@link MemoryStore} for core tests: the same contract as the Dexie adapter
 * (atomic `apply`, seqs assigned per agent, upserts by key), over plain maps. `apply` validates
 * the whole change set before it writes anything, so a failing set changes nothing.
 */
import type { QueryObserver, QuerySubscription } from '../core/ports/live-queries';
import { AppError } from '../core/errors';
import type {
  Agent,
  AgentId,
  BlockVersion,
  Conversation,
  ConversationId,
  CoreBlock,
  DocumentId,
  DocumentMeta,
  Message,
  MessageId,
  Passage,
  PassageId,
  StepRecord,
  Summary,
  TurnId,
  TurnRecord,
} from '../core/model';
import { conversationOf } from '../core/model';
import type {
  Applied,
  ChangeSet,
  DeletedConversation,
  DeletedMessageRows,
  MemoryStore,
  MessageQuery,
  MessageSwap,
  PassageQuery,
  TierName,
  TierStats,
} from '../core/ports/memory-store';

const clone = <T>(value: T): T => structuredClone(value);

/** The writes after which watched queries re-run. */
const WRITES = [
  'apply',
  'deleteAgent',
  'deleteConversation',
  'restoreConversation',
  'deleteMessages',
  'restoreMessages',
  'swapMessages',
  'deleteDocument',
  'setSetting',
  'updateSetting',
] as const;

export class InMemoryStore implements MemoryStore {
  readonly agents = new Map<AgentId, Agent>();
  readonly conversations = new Map<ConversationId, Conversation>();
  readonly blocks = new Map<string, CoreBlock>();
  readonly history: BlockVersion[] = [];
  readonly messages = new Map<MessageId, Message>();
  /** Messages per agent in seq order (seqs rise; deletes leave gaps). */
  private readonly byAgent = new Map<AgentId, Message[]>();
  /** The highest seq each agent has ever been given: deleted seqs are never reused. */
  private readonly seqMark = new Map<AgentId, number>();
  readonly summaries: Summary[] = [];
  readonly passages = new Map<PassageId, Passage>();
  readonly documents = new Map<DocumentId, DocumentMeta>();
  readonly turns = new Map<TurnId, TurnRecord>();
  readonly steps: StepRecord[] = [];
  private readonly settings = new Map<string, unknown>();
  /** Number of successful `apply` calls (tests assert transaction boundaries with it). */
  applyCount = 0;
  /** When set, the next `apply` throws this instead of writing (crash tests). */
  failNextApply: AppError | null = null;

  /**
   * An independent copy of everything stored: writes to either side never reach the other (the
   * memory evaluation asks each question on a fork of the replayed state).
   */
  /** Re-runs of the watched queries (LiveQueries), called after every write. */
  private readonly watchers = new Set<() => void>();

  constructor() {
    // Every write re-runs the watched queries once it is done, as Dexie's liveQuery re-runs
    // those a write touched (this store does not track what a query read, so it re-runs all).
    for (const name of WRITES) {
      const write = (this[name] as (...args: unknown[]) => Promise<unknown>).bind(this);
      (this as unknown as Record<string, unknown>)[name] = (...args: unknown[]) =>
        write(...args).then((result) => {
          for (const rerun of [...this.watchers]) rerun();
          return result;
        });
    }
  }

  watch<T>(query: () => Promise<T>, observer: QueryObserver<T>): QuerySubscription {
    let live = true;
    const rerun = (): void => {
      query().then(
        (value) => live && observer.next(value),
        (error: unknown) => live && observer.error(error),
      );
    };
    this.watchers.add(rerun);
    rerun();
    return {
      unsubscribe: () => {
        live = false;
        this.watchers.delete(rerun);
      },
    };
  }

  fork(): InMemoryStore {
    const copy = new InMemoryStore();
    for (const [id, agent] of this.agents) copy.agents.set(id, clone(agent));
    for (const [id, c] of this.conversations) copy.conversations.set(id, clone(c));
    for (const [key, block] of this.blocks) copy.blocks.set(key, clone(block));
    copy.history.push(...this.history);
    // Stored messages change in place only in `inContext` and `otherVersions` (replaced, never
    // mutated within): a shallow copy of each suffices.
    for (const [agentId, list] of this.byAgent) {
      const mine = list.map((m) => ({ ...m }));
      copy.byAgent.set(agentId, mine);
      const mark = this.seqMark.get(agentId);
      if (mark !== undefined) copy.seqMark.set(agentId, mark);
      for (const m of mine) copy.messages.set(m.id, m);
    }
    copy.summaries.push(...this.summaries);
    for (const [id, passage] of this.passages) copy.passages.set(id, passage);
    for (const [id, doc] of this.documents) copy.documents.set(id, doc);
    for (const [id, turn] of this.turns) copy.turns.set(id, turn);
    copy.steps.push(...this.steps);
    for (const [key, value] of this.settings) copy.settings.set(key, clone(value));
    return copy;
  }

  apply(changes: ChangeSet): Promise<Applied> {
    if (this.failNextApply) {
      const error = this.failNextApply;
      this.failNextApply = null;
      return Promise.reject(error);
    }
    for (const id of changes.inContext?.ids ?? []) {
      const known =
        this.messages.has(id) || (changes.messages ?? []).some((message) => message.id === id);
      if (!known) return Promise.reject(new AppError('not_found', `No message ${id}.`));
    }
    // As the Dexie store: a row in another agent's conversation aborts the whole change set.
    const owners = new Map([...this.conversations].map(([id, c]) => [id, c.agentId]));
    for (const c of changes.conversations ?? []) owners.set(c.id, c.agentId);
    for (const row of [...(changes.messages ?? []), ...(changes.summaries ?? [])]) {
      const owner = owners.get(conversationOf(row));
      if (owner !== undefined && owner !== row.agentId)
        return Promise.reject(
          new AppError(
            'invalid_argument',
            `Conversation "${conversationOf(row)}" belongs to another agent; nothing was saved.`,
          ),
        );
    }
    this.applyCount += 1;
    for (const agent of changes.agents ?? []) this.agents.set(agent.id, clone(agent));
    for (const c of changes.conversations ?? []) this.conversations.set(c.id, clone(c));
    for (const write of changes.blocks ?? []) {
      this.blocks.set(`${write.block.agentId}\u0000${write.block.label}`, clone(write.block));
      this.history.push(clone(write.history));
    }
    const written: Message[] = [];
    for (const draft of changes.messages ?? []) {
      const list = this.byAgent.get(draft.agentId) ?? [];
      const seq = this.lastSeqOf(draft.agentId) + 1;
      this.seqMark.set(draft.agentId, seq);
      const message: Message = {
        ...clone(draft),
        conversationId: conversationOf(draft),
        seq,
      };
      this.touch(message.conversationId!, message.agentId, message.at, true);
      list.push(message);
      this.byAgent.set(draft.agentId, list);
      this.messages.set(message.id, message);
      written.push(clone(message));
    }
    if (changes.inContext) {
      for (const id of changes.inContext.ids) {
        const message = this.messages.get(id);
        if (message) message.inContext = changes.inContext.inContext;
      }
    }
    for (const summary of changes.summaries ?? []) {
      const row = { ...clone(summary), conversationId: conversationOf(summary) };
      this.touch(row.conversationId, row.agentId, row.at, false);
      this.summaries.push(row);
    }
    for (const passage of changes.passages ?? []) this.passages.set(passage.id, clone(passage));
    for (const id of changes.deletePassages ?? []) this.passages.delete(id);
    for (const doc of changes.documents ?? []) this.documents.set(doc.id, clone(doc));
    for (const turn of changes.turns ?? []) this.turns.set(turn.id, clone(turn));
    for (const step of changes.steps ?? []) this.steps.push(clone(step));
    return Promise.resolve({ messages: written });
  }

  /** The conversation exists afterwards; a message moves its `updatedAt` forward. */
  private touch(id: ConversationId, agentId: AgentId, at: number, isMessage: boolean): void {
    const found = this.conversations.get(id);
    if (!found) {
      this.conversations.set(id, {
        id,
        agentId,
        title: 'Conversation',
        createdAt: at,
        updatedAt: at,
      });
    } else if (isMessage && at > found.updatedAt) {
      found.updatedAt = at;
    }
  }

  listConversations(agentId: AgentId): Promise<Conversation[]> {
    const mine = [...this.conversations.values()].filter((c) => c.agentId === agentId);
    return Promise.resolve(mine.sort((a, b) => b.updatedAt - a.updatedAt).map(clone));
  }

  getConversation(id: ConversationId): Promise<Conversation | undefined> {
    const found = this.conversations.get(id);
    return Promise.resolve(found ? clone(found) : undefined);
  }

  deleteConversation(id: ConversationId): Promise<DeletedConversation> {
    const conversation = this.conversations.get(id);
    if (!conversation)
      return Promise.reject(new AppError('not_found', `No conversation with id "${id}".`));
    const list = this.byAgent.get(conversation.agentId) ?? [];
    const messages = list.filter((m) => conversationOf(m) === id);
    const kept = list.filter((m) => conversationOf(m) !== id);
    // A deleted seq is never handed out again (S24), so an undo keeps its place.
    this.seqMark.set(conversation.agentId, this.lastSeqOf(conversation.agentId));
    this.byAgent.set(conversation.agentId, kept);
    for (const m of messages) this.messages.delete(m.id);
    const summaries = this.summaries.filter((x) => conversationOf(x) === id);
    const others = this.summaries.filter((x) => conversationOf(x) !== id);
    this.summaries.splice(0, this.summaries.length, ...others);
    this.conversations.delete(id);
    const dependent = this.deleteDependents(
      conversation.agentId,
      new Set(messages.map((m) => m.id)),
    );
    return Promise.resolve({
      conversation: clone(conversation),
      messages,
      summaries,
      ...dependent,
    });
  }

  /** The turns these messages triggered and their steps, deleted with them (S40). */
  private deleteDependents(
    agentId: AgentId,
    ids: ReadonlySet<MessageId>,
  ): Pick<DeletedMessageRows, 'turns' | 'steps'> {
    const turns = [...this.turns.values()]
      .filter((t) => t.agentId === agentId && ids.has(t.triggerMessageId))
      .sort((a, b) => a.startedAt - b.startedAt);
    const gone = new Set(turns.map((t) => t.id));
    for (const t of turns) this.turns.delete(t.id);
    const steps = this.steps.filter((x) => gone.has(x.turnId));
    const kept = this.steps.filter((x) => !gone.has(x.turnId));
    this.steps.splice(0, this.steps.length, ...kept);
    return { turns: turns.map(clone), steps: steps.map(clone) };
  }

  /** Puts turns and steps back (undo); false, changing nothing, when a turn id is taken. */
  private canRestoreDependents(rows: Pick<DeletedMessageRows, 'turns'>): boolean {
    return !rows.turns.some((t) => this.turns.has(t.id));
  }

  private restoreDependents(rows: Pick<DeletedMessageRows, 'turns' | 'steps'>): void {
    for (const t of rows.turns) this.turns.set(t.id, clone(t));
    this.steps.push(...rows.steps.map(clone));
  }

  restoreConversation(deleted: DeletedConversation): Promise<void> {
    const { conversation } = deleted;
    if (
      this.conversations.has(conversation.id) ||
      deleted.messages.some((m) => this.messages.has(m.id)) ||
      !this.canRestoreDependents(deleted)
    )
      return Promise.reject(
        new AppError(
          'invalid_argument',
          `Conversation "${conversation.title}" already exists; nothing was restored.`,
        ),
      );
    this.conversations.set(conversation.id, clone(conversation));
    const list = [
      ...(this.byAgent.get(conversation.agentId) ?? []),
      ...deleted.messages.map(clone),
    ];
    list.sort((a, b) => a.seq - b.seq);
    this.byAgent.set(conversation.agentId, list);
    for (const m of list) this.messages.set(m.id, m);
    this.summaries.push(...deleted.summaries.map(clone));
    this.restoreDependents(deleted);
    return Promise.resolve();
  }

  getAgent(id: AgentId): Promise<Agent | undefined> {
    const agent = this.agents.get(id);
    return Promise.resolve(agent ? clone(agent) : undefined);
  }

  listAgents(): Promise<Agent[]> {
    return Promise.resolve([...this.agents.values()].map(clone));
  }

  deleteAgent(id: AgentId): Promise<void> {
    this.agents.delete(id);
    for (const [key, c] of this.conversations) if (c.agentId === id) this.conversations.delete(key);
    for (const [key, block] of this.blocks) if (block.agentId === id) this.blocks.delete(key);
    for (const message of this.byAgent.get(id) ?? []) this.messages.delete(message.id);
    this.byAgent.delete(id);
    for (const [key, passage] of this.passages)
      if (passage.agentId === id) this.passages.delete(key);
    return Promise.resolve();
  }

  listBlocks(agentId: AgentId): Promise<CoreBlock[]> {
    const blocks = [...this.blocks.values()].filter((block) => block.agentId === agentId);
    return Promise.resolve(blocks.map(clone));
  }

  getBlock(agentId: AgentId, label: string): Promise<CoreBlock | undefined> {
    const block = this.blocks.get(`${agentId}\u0000${label}`);
    return Promise.resolve(block ? clone(block) : undefined);
  }

  blockHistory(agentId: AgentId, label: string): Promise<BlockVersion[]> {
    const rows = this.history.filter((row) => row.agentId === agentId && row.label === label);
    return Promise.resolve(rows.map(clone));
  }

  getMessages(ids: MessageId[]): Promise<Message[]> {
    const found = ids.flatMap((id) => {
      const message = this.messages.get(id);
      return message ? [clone(message)] : [];
    });
    return Promise.resolve(found);
  }

  private select(agentId: AgentId, query: MessageQuery = {}): Message[] {
    let list = (this.byAgent.get(agentId) ?? []).filter(
      (m) =>
        (query.conversationId === undefined || conversationOf(m) === query.conversationId) &&
        (query.fromSeq === undefined || m.seq >= query.fromSeq) &&
        (query.toSeq === undefined || m.seq <= query.toSeq) &&
        (query.inContext === undefined || m.inContext === query.inContext) &&
        (query.roles === undefined || query.roles.includes(m.role)) &&
        (query.from === undefined || m.at >= query.from) &&
        (query.to === undefined || m.at <= query.to),
    );
    if (query.reverse) list = [...list].reverse();
    const start = query.offset ?? 0;
    return list.slice(start, query.limit === undefined ? undefined : start + query.limit);
  }

  queryMessages(agentId: AgentId, query?: MessageQuery): Promise<Message[]> {
    return Promise.resolve(this.select(agentId, query).map(clone));
  }

  countMessages(agentId: AgentId, query?: MessageQuery): Promise<number> {
    return Promise.resolve(this.select(agentId, { ...query, offset: 0, limit: undefined }).length);
  }

  private lastSeqOf(agentId: AgentId): number {
    const list = this.byAgent.get(agentId) ?? [];
    return Math.max(list.at(-1)?.seq ?? 0, this.seqMark.get(agentId) ?? 0);
  }

  lastSeq(agentId: AgentId): Promise<number> {
    return Promise.resolve(this.lastSeqOf(agentId));
  }

  deleteMessages(ids: MessageId[]): Promise<DeletedMessageRows> {
    const removed = ids
      .flatMap((id) => {
        const message = this.messages.get(id);
        return message ? [message] : [];
      })
      .sort((a, b) => a.seq - b.seq);
    for (const message of removed) {
      this.seqMark.set(message.agentId, this.lastSeqOf(message.agentId));
      this.messages.delete(message.id);
      const list = this.byAgent.get(message.agentId) ?? [];
      this.byAgent.set(
        message.agentId,
        list.filter((m) => m.id !== message.id),
      );
    }
    const deleted: DeletedMessageRows = { messages: removed.map(clone), turns: [], steps: [] };
    for (const agentId of new Set(removed.map((m) => m.agentId))) {
      const mine = new Set(removed.filter((m) => m.agentId === agentId).map((m) => m.id));
      const dependent = this.deleteDependents(agentId, mine);
      deleted.turns.push(...dependent.turns);
      deleted.steps.push(...dependent.steps);
    }
    return Promise.resolve(deleted);
  }

  restoreMessages(deleted: DeletedMessageRows): Promise<void> {
    const { messages } = deleted;
    if (!this.canRestoreDependents(deleted))
      return Promise.reject(
        new AppError('invalid_argument', 'A turn of these messages is already there.'),
      );
    for (const message of messages) {
      const taken =
        this.messages.has(message.id) ||
        (this.byAgent.get(message.agentId) ?? []).some((m) => m.seq === message.seq);
      if (taken)
        return Promise.reject(
          new AppError(
            'invalid_argument',
            `Message ${message.id} cannot be restored: it is already there.`,
          ),
        );
    }
    for (const message of messages) {
      const copy = clone(message);
      const list = [...(this.byAgent.get(message.agentId) ?? []), copy].sort(
        (a, b) => a.seq - b.seq,
      );
      this.byAgent.set(message.agentId, list);
      this.messages.set(copy.id, copy);
      this.seqMark.set(message.agentId, Math.max(this.lastSeqOf(message.agentId), copy.seq));
    }
    this.restoreDependents(deleted);
    return Promise.resolve();
  }

  /** All or nothing (S43): a restore that fails puts the removed rows back before it rejects. */
  async swapMessages(swap: MessageSwap): Promise<DeletedMessageRows> {
    const holder = this.messages.get(swap.holder.id);
    if (!holder) throw new AppError('not_found', `No message ${swap.holder.id}.`);
    const removed = await this.deleteMessages(swap.remove);
    await this.restoreMessages(swap.restore).catch(async (error: unknown) => {
      await this.restoreMessages(removed);
      throw error;
    });
    const { otherVersions, holdRemoved } = swap.holder;
    const versions = [...otherVersions, ...(holdRemoved && removed.messages[0] ? [removed] : [])];
    // In place, as `inContext` changes: a fork's shallow copies keep their own field.
    delete holder.otherVersions;
    if (versions[0]) holder.otherVersions = clone(versions);
    return removed;
  }

  latestSummary(agentId: AgentId, conversationId?: ConversationId): Promise<Summary | undefined> {
    const mine = this.summaries.filter(
      (s) =>
        s.agentId === agentId &&
        (conversationId === undefined || conversationOf(s) === conversationId),
    );
    const latest = mine.reduce<Summary | undefined>(
      (best, s) => (best === undefined || s.version > best.version ? s : best),
      undefined,
    );
    return Promise.resolve(latest ? clone(latest) : undefined);
  }

  listSummaries(agentId: AgentId, conversationId?: ConversationId): Promise<Summary[]> {
    return Promise.resolve(
      this.summaries
        .filter(
          (s) =>
            s.agentId === agentId &&
            (conversationId === undefined || conversationOf(s) === conversationId),
        )
        .map(clone),
    );
  }

  getPassages(ids: PassageId[]): Promise<Passage[]> {
    return Promise.resolve(
      ids.flatMap((id) => {
        const passage = this.passages.get(id);
        return passage ? [clone(passage)] : [];
      }),
    );
  }

  private selectPassages(agentId: AgentId, query: PassageQuery = {}): Passage[] {
    return [...this.passages.values()].filter(
      (p) =>
        p.agentId === agentId &&
        (query.sourceType === undefined || p.source.type === query.sourceType) &&
        (query.documentId === undefined ||
          (p.source.type === 'document' && p.source.documentId === query.documentId)),
    );
  }

  queryPassages(agentId: AgentId, query?: PassageQuery): Promise<Passage[]> {
    const start = query?.offset ?? 0;
    const end = query?.limit === undefined ? undefined : start + query.limit;
    return Promise.resolve(this.selectPassages(agentId, query).slice(start, end).map(clone));
  }

  countPassages(agentId: AgentId, query?: PassageQuery): Promise<number> {
    return Promise.resolve(this.selectPassages(agentId, query).length);
  }

  getDocument(id: DocumentId): Promise<DocumentMeta | undefined> {
    const doc = this.documents.get(id);
    return Promise.resolve(doc ? clone(doc) : undefined);
  }

  listDocuments(agentId: AgentId): Promise<DocumentMeta[]> {
    return Promise.resolve([...this.documents.values()].filter((d) => d.agentId === agentId));
  }

  findDocumentByHash(agentId: AgentId, contentHash: string): Promise<DocumentMeta | undefined> {
    return Promise.resolve(
      [...this.documents.values()].find(
        (d) => d.agentId === agentId && d.contentHash === contentHash,
      ),
    );
  }

  deleteDocument(id: DocumentId): Promise<PassageId[]> {
    const ids = [...this.passages.values()]
      .filter((p) => p.source.type === 'document' && p.source.documentId === id)
      .map((p) => p.id);
    for (const passageId of ids) this.passages.delete(passageId);
    this.documents.delete(id);
    return Promise.resolve(ids);
  }

  getTurn(id: TurnId): Promise<TurnRecord | undefined> {
    const turn = this.turns.get(id);
    return Promise.resolve(turn ? clone(turn) : undefined);
  }

  listTurns(agentId: AgentId, status?: TurnRecord['status']): Promise<TurnRecord[]> {
    return Promise.resolve(
      [...this.turns.values()]
        .filter((t) => t.agentId === agentId && (status === undefined || t.status === status))
        // Oldest first, as the Dexie store lists them (an undone delete puts turns back late).
        .sort((a, b) => a.startedAt - b.startedAt)
        .map(clone),
    );
  }

  listSteps(turnId: TurnId): Promise<StepRecord[]> {
    return Promise.resolve(
      this.steps
        .filter((s) => s.turnId === turnId)
        .sort((a, b) => a.step - b.step)
        .map(clone),
    );
  }

  getSetting<T>(key: string): Promise<T | undefined> {
    return Promise.resolve(this.settings.get(key) as T | undefined);
  }

  setSetting(key: string, value: unknown): Promise<void> {
    this.settings.set(key, value);
    return Promise.resolve();
  }

  updateSetting<T>(
    key: string,
    update: (current: T | undefined) => T | undefined,
  ): Promise<T | undefined> {
    const current = this.settings.get(key) as T | undefined;
    const next = update(current);
    if (next !== current) this.settings.set(key, next);
    return Promise.resolve(next);
  }

  stats(agentId?: AgentId): Promise<Record<TierName, TierStats>> {
    const mine = <T extends { agentId: AgentId }>(rows: Iterable<T>): TierStats => {
      const list = [...rows].filter((row) => agentId === undefined || row.agentId === agentId);
      return { rows: list.length, bytes: JSON.stringify(list).length };
    };
    return Promise.resolve({
      agents: { rows: this.agents.size, bytes: 0 },
      blocks: mine(this.blocks.values()),
      blockHistory: mine(this.history),
      messages: mine(this.messages.values()),
      summaries: mine(this.summaries),
      passages: mine(this.passages.values()),
      documents: mine(this.documents.values()),
      turns: mine(this.turns.values()),
      steps: mine(this.steps),
    });
  }
}
