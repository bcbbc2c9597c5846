import { isAgentSettingKey } from './agent-setting-keys';
import { Dexie, liveQuery, type Collection, type Table } from 'dexie';
import type { QueryObserver, QuerySubscription } from '../../../core/ports/live-queries';
import { AppError } from '../../../core/errors';
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
} from '../../../core/model';
import { conversationOf } from '../../../core/model';
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
} from '../../../core/ports/memory-store';
import { AGENT_OWNED_TABLES } from '../../../core/ports/store-tables';
import type { PackedVectors, VectorStore } from '../../../core/search/vector-store';
import {
  deleteConversationRows,
  deleteMessageRows,
  fromRow,
  lastSeqIn,
  restoreConversationRows,
  restoreMessageRows,
  setOtherVersions,
  toRow,
  touchConversations,
} from './message-rows';
import type { LociDb } from './loci-db';
import { type MessageRow } from './loci-db';
import { nativeVersion, newerVersionError } from './newer-version';
import { readTierStats, readVectorStats } from './store-stats';
import { toStorageError } from './storage-error';
import { appendVectors } from './vector-rows';
import { deleteDependentRows, restoreDependentRows } from './dependent-rows';

/**
 * The memory store over IndexedDB (Dexie 4). Implements the `MemoryStore` port plus the
 * `VectorStore` of message embeddings. Every write is one `rw` transaction; seqs are assigned
 * inside it, so they are monotonic per agent even with two tabs writing.
 */
export class DexieMemoryStore implements MemoryStore, VectorStore {
  readonly db: LociDb;

  constructor(db: LociDb) {
    this.db = db;
  }

  /** Runs `body` in one rw transaction; any failure (quota included) rolls all of it back. */
  async write<T>(what: string, tables: Table[], body: () => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction('rw', tables, body);
    } catch (error) {
      throw this.failure(error, what);
    }
  }

  private async read<T>(what: string, body: () => Promise<T>): Promise<T> {
    try {
      return await body();
    } catch (error) {
      throw this.failure(error, what);
    }
  }

  private failure(error: unknown, what: string): AppError {
    if (this.db.upgradedElsewhere !== null)
      return newerVersionError(this.db.upgradedElsewhere, nativeVersion(this.db.verno));
    return toStorageError(error, what);
  }

  /** Schema v2 and later: messages and summaries belong to conversations (ADR 0151). */
  get hasConversations(): boolean {
    return this.db.verno >= 2;
  }

  private requireConversations(): void {
    if (!this.hasConversations)
      throw new AppError('invalid_argument', 'This database has no conversations (schema v1).');
  }

  async apply(changes: ChangeSet): Promise<Applied> {
    const db = this.db;
    const v2 = this.hasConversations;
    const tables: Table[] = [];
    if (changes.agents?.length) tables.push(db.agents);
    if (
      v2 &&
      (changes.conversations?.length || changes.messages?.length || changes.summaries?.length)
    )
      tables.push(db.conversations);
    if (changes.blocks?.length) tables.push(db.blocks, db.blockHistory);
    if (changes.messages?.length || changes.inContext?.ids.length) tables.push(db.messages);
    // New messages read the seq high-water mark (see deleteMessages).
    if (changes.messages?.length) tables.push(db.settings);
    if (changes.summaries?.length) tables.push(db.summaries);
    if (changes.passages?.length || changes.deletePassages?.length) tables.push(db.passages);
    if (changes.documents?.length) tables.push(db.documents);
    if (changes.turns?.length) tables.push(db.turns);
    if (changes.steps?.length) tables.push(db.steps);
    if (tables.length === 0) return { messages: [] };

    return this.write('save changes', tables, async () => {
      if (changes.agents?.length) await db.agents.bulkPut(changes.agents);
      if (v2 && changes.conversations?.length)
        await db.conversations.bulkPut(changes.conversations);
      if (changes.blocks?.length) {
        await db.blocks.bulkPut(changes.blocks.map((b) => b.block));
        await db.blockHistory.bulkPut(changes.blocks.map((b) => b.history));
      }
      const written: Message[] = [];
      if (changes.messages?.length) {
        const next = new Map<AgentId, number>();
        for (const m of changes.messages) {
          let seq = next.get(m.agentId);
          if (seq === undefined) seq = (await lastSeqIn(this.db, m.agentId)) + 1;
          written.push(
            (v2 ? { ...m, conversationId: conversationOf(m), seq } : { ...m, seq }) as Message,
          );
          next.set(m.agentId, seq + 1);
        }
        // bulkAdd, not bulkPut: a duplicate id is a bug and must abort the whole change set.
        await db.messages.bulkAdd(written.map(toRow));
      }
      if (changes.inContext?.ids.length) {
        const inContext = changes.inContext.inContext;
        await db.messages
          .where('id')
          .anyOf(changes.inContext.ids)
          .modify({ inContext, ctx: inContext ? 1 : 0 });
      }
      if (changes.summaries?.length)
        await db.summaries.bulkPut(
          v2
            ? changes.summaries.map((x) => ({ ...x, conversationId: conversationOf(x) }))
            : changes.summaries,
        );
      if (v2) await touchConversations(this.db, written, changes.summaries ?? []);
      if (changes.deletePassages?.length) await db.passages.bulkDelete(changes.deletePassages);
      if (changes.passages?.length) await db.passages.bulkPut(changes.passages);
      if (changes.documents?.length) await db.documents.bulkPut(changes.documents);
      if (changes.turns?.length) await db.turns.bulkPut(changes.turns);
      if (changes.steps?.length) await db.steps.bulkPut(changes.steps);
      return { messages: written };
    });
  }

  /**
   * Inside a write: every conversation that new messages or summaries name exists afterwards
   * (a message written without one lands in the agent's first conversation, which is created
   * if missing), and its `updatedAt` is the time of its newest message.
   */
  listConversations(agentId: AgentId): Promise<Conversation[]> {
    return this.read('list conversations', async () => {
      if (!this.hasConversations) return [];
      return this.db.conversations
        .where('[agentId+updatedAt]')
        .between([agentId, Dexie.minKey], [agentId, Dexie.maxKey])
        .reverse()
        .toArray();
    });
  }

  getConversation(id: ConversationId): Promise<Conversation | undefined> {
    return this.read('read conversation', async () =>
      this.hasConversations ? this.db.conversations.get(id) : undefined,
    );
  }

  async deleteConversation(id: ConversationId): Promise<DeletedConversation> {
    this.requireConversations();
    const db = this.db;
    return this.write(
      'delete conversation',
      [db.conversations, db.messages, db.summaries, db.settings, db.turns, db.steps, db.vectors],
      async () => {
        const deleted = await deleteConversationRows(db, id);
        return { ...deleted, ...(await deleteDependentRows(db, deleted.messages)) };
      },
    );
  }

  async restoreConversation(deleted: DeletedConversation): Promise<void> {
    this.requireConversations();
    const db = this.db;
    await this.write(
      'restore conversation',
      [db.conversations, db.messages, db.summaries, db.turns, db.steps],
      async () => {
        await restoreConversationRows(db, deleted);
        await restoreDependentRows(db, deleted);
      },
    );
  }

  async deleteMessages(ids: MessageId[]): Promise<DeletedMessageRows> {
    const db = this.db;
    if (ids.length === 0) return { messages: [], turns: [], steps: [] };
    return this.write(
      'delete messages',
      [db.messages, db.settings, db.turns, db.steps, db.vectors],
      async () => {
        const messages = await deleteMessageRows(db, ids);
        return { messages, ...(await deleteDependentRows(db, messages)) };
      },
    );
  }

  async restoreMessages(deleted: DeletedMessageRows): Promise<void> {
    const db = this.db;
    if (deleted.messages.length === 0 && deleted.turns.length === 0) return;
    await this.write('restore messages', [db.messages, db.turns, db.steps], async () => {
      await restoreMessageRows(db, deleted.messages);
      await restoreDependentRows(db, deleted);
    });
  }

  async swapMessages(swap: MessageSwap): Promise<DeletedMessageRows> {
    const db = this.db;
    const tables = [db.messages, db.settings, db.turns, db.steps, db.vectors];
    return this.write('switch reply versions', tables, async () => {
      const messages = await deleteMessageRows(db, swap.remove);
      const removed = { messages, ...(await deleteDependentRows(db, messages)) };
      await restoreMessageRows(db, swap.restore.messages);
      await restoreDependentRows(db, swap.restore);
      const { id, otherVersions, holdRemoved } = swap.holder;
      const held = holdRemoved && messages.length > 0 ? [removed] : [];
      await setOtherVersions(db, id, [...otherVersions, ...held]);
      return removed;
    });
  }

  getAgent(id: AgentId): Promise<Agent | undefined> {
    return this.read('read agent', () => this.db.agents.get(id));
  }

  /** Dexie's `liveQuery`: re-run after any write that touches what `query` read (any tab). */
  watch<T>(query: () => Promise<T>, observer: QueryObserver<T>): QuerySubscription {
    const subscription = liveQuery(query).subscribe({
      next: (value) => observer.next(value),
      error: (error: unknown) => observer.error(error),
    });
    return { unsubscribe: () => subscription.unsubscribe() };
  }

  listAgents(): Promise<Agent[]> {
    return this.read('list agents', () => this.db.agents.toArray());
  }

  async deleteAgent(id: AgentId): Promise<void> {
    const db = this.db;
    // A schema v1 database has no conversations table.
    const owned = AGENT_OWNED_TABLES.filter(
      (name) => this.hasConversations || name !== 'conversations',
    ).map((name) => db.table(name));
    await this.write('delete agent', [db.agents, db.settings, ...owned], async () => {
      await db.agents.delete(id);
      for (const table of owned) await table.where('agentId').equals(id).delete();
      const keys = await db.settings.toCollection().primaryKeys();
      await db.settings.bulkDelete(keys.filter((key) => isAgentSettingKey(key, id)));
    });
  }

  listBlocks(agentId: AgentId): Promise<CoreBlock[]> {
    return this.read('list blocks', () =>
      this.db.blocks.where('agentId').equals(agentId).toArray(),
    );
  }

  getBlock(agentId: AgentId, label: string): Promise<CoreBlock | undefined> {
    return this.read('read block', () => this.db.blocks.get([agentId, label]));
  }

  blockHistory(agentId: AgentId, label: string): Promise<BlockVersion[]> {
    return this.read('read block history', () =>
      this.db.blockHistory
        .where('[agentId+label+version]')
        .between([agentId, label, Dexie.minKey], [agentId, label, Dexie.maxKey])
        .toArray(),
    );
  }

  getMessages(ids: MessageId[]): Promise<Message[]> {
    return this.read('read messages', async () => {
      const rows = await this.db.messages.bulkGet(ids);
      return rows.filter((r): r is MessageRow => r !== undefined).map(fromRow);
    });
  }

  private messageCollection(agentId: AgentId, q: MessageQuery): Collection<MessageRow, string> {
    const lo = q.fromSeq ?? Dexie.minKey;
    const hi = q.toSeq ?? Dexie.maxKey;
    let c: Collection<MessageRow, string>;
    const bySeq = q.fromSeq !== undefined || q.toSeq !== undefined;
    let from = q.from;
    let to = q.to;
    const conv = q.conversationId;
    if (conv !== undefined && this.hasConversations) {
      c =
        q.inContext !== undefined
          ? this.db.messages
              .where('[conversationId+ctx+seq]')
              .between([conv, q.inContext ? 1 : 0, lo], [conv, q.inContext ? 1 : 0, hi], true, true)
          : this.db.messages
              .where('[conversationId+seq]')
              .between([conv, lo], [conv, hi], true, true);
      // The conversation id names its agent; a row of another agent never matches.
      c = c.filter((m) => m.agentId === agentId);
    } else if (conv !== undefined) {
      // Schema v1: every message is in the agent's one conversation.
      c = this.db.messages
        .where('[agentId+seq]')
        .between([agentId, lo], [agentId, hi], true, true)
        .filter((m) => conversationOf(m) === conv);
      if (q.inContext !== undefined) {
        const want = q.inContext;
        c = c.filter((m) => m.inContext === want);
      }
    } else if (q.inContext !== undefined) {
      const ctx = q.inContext ? 1 : 0;
      c = this.db.messages
        .where('[agentId+ctx+seq]')
        .between([agentId, ctx, lo], [agentId, ctx, hi], true, true);
    } else if (!bySeq && (from !== undefined || to !== undefined)) {
      // A date range alone uses the time index (order by time, which is seq order for live chat).
      c = this.db.messages
        .where('[agentId+at]')
        .between([agentId, from ?? Dexie.minKey], [agentId, to ?? Dexie.maxKey], true, true);
      from = undefined;
      to = undefined;
    } else {
      c = this.db.messages.where('[agentId+seq]').between([agentId, lo], [agentId, hi], true, true);
    }
    const roles = q.roles ? new Set(q.roles) : null;
    if (roles || from !== undefined || to !== undefined) {
      c = c.filter(
        (m) =>
          (!roles || roles.has(m.role)) &&
          (from === undefined || m.at >= from) &&
          (to === undefined || m.at <= to),
      );
    }
    return c;
  }

  queryMessages(agentId: AgentId, query: MessageQuery = {}): Promise<Message[]> {
    return this.read('query messages', async () => {
      let c = this.messageCollection(agentId, query);
      if (query.reverse) c = c.reverse();
      if (query.offset) c = c.offset(query.offset);
      if (query.limit !== undefined) c = c.limit(query.limit);
      if (!query.oneByOne) return (await c.toArray()).map(fromRow);
      // `each` walks a cursor: every row arrives in its own IndexedDB event, so the page decodes
      // one row per task instead of the whole result in one (X189). A live query still tracks
      // each row read, so a changed row re-runs it.
      const rows: Message[] = [];
      await c.each((row) => void rows.push(fromRow(row)));
      return rows;
    });
  }

  countMessages(agentId: AgentId, query: MessageQuery = {}): Promise<number> {
    return this.read('count messages', () => this.messageCollection(agentId, query).count());
  }

  lastSeq(agentId: AgentId): Promise<number> {
    return this.read('read last seq', () =>
      this.db.transaction('r', [this.db.messages, this.db.settings], () =>
        lastSeqIn(this.db, agentId),
      ),
    );
  }

  private summaryCollection(
    agentId: AgentId,
    conversationId: ConversationId | undefined,
  ): Collection<Summary, string> {
    if (conversationId !== undefined && this.hasConversations) {
      return this.db.summaries
        .where('[conversationId+version]')
        .between([conversationId, Dexie.minKey], [conversationId, Dexie.maxKey])
        .filter((x) => x.agentId === agentId);
    }
    const all = this.db.summaries
      .where('[agentId+version]')
      .between([agentId, Dexie.minKey], [agentId, Dexie.maxKey]);
    return conversationId === undefined
      ? all
      : all.filter((x) => conversationOf(x) === conversationId);
  }

  latestSummary(agentId: AgentId, conversationId?: ConversationId): Promise<Summary | undefined> {
    return this.read('read summary', async () => {
      const list = await this.summaryCollection(agentId, conversationId).toArray();
      return list.reduce<Summary | undefined>(
        (best, x) => (best === undefined || x.version >= best.version ? x : best),
        undefined,
      );
    });
  }

  listSummaries(agentId: AgentId, conversationId?: ConversationId): Promise<Summary[]> {
    return this.read('list summaries', async () =>
      (await this.summaryCollection(agentId, conversationId).toArray()).sort(
        (a, b) => a.version - b.version,
      ),
    );
  }

  getPassages(ids: PassageId[]): Promise<Passage[]> {
    return this.read('read passages', async () =>
      (await this.db.passages.bulkGet(ids)).filter((p): p is Passage => p !== undefined),
    );
  }

  private passageCollection(agentId: AgentId, q: PassageQuery): Collection<Passage, string> {
    if (q.documentId !== undefined) {
      const documentId = q.documentId;
      return this.db.passages
        .where('source.documentId')
        .equals(documentId)
        .filter((p) => p.agentId === agentId);
    }
    if (q.sourceType !== undefined) {
      return this.db.passages.where('[agentId+source.type]').equals([agentId, q.sourceType]);
    }
    return this.db.passages
      .where('[agentId+at]')
      .between([agentId, Dexie.minKey], [agentId, Dexie.maxKey]);
  }

  queryPassages(agentId: AgentId, query: PassageQuery = {}): Promise<Passage[]> {
    return this.read('query passages', async () => {
      let c = this.passageCollection(agentId, query);
      if (query.offset) c = c.offset(query.offset);
      if (query.limit !== undefined) c = c.limit(query.limit);
      return c.toArray();
    });
  }

  countPassages(agentId: AgentId, query: PassageQuery = {}): Promise<number> {
    return this.read('count passages', () => this.passageCollection(agentId, query).count());
  }

  getDocument(id: DocumentId): Promise<DocumentMeta | undefined> {
    return this.read('read document', () => this.db.documents.get(id));
  }

  listDocuments(agentId: AgentId): Promise<DocumentMeta[]> {
    return this.read('list documents', () =>
      this.db.documents.where('agentId').equals(agentId).toArray(),
    );
  }

  findDocumentByHash(agentId: AgentId, contentHash: string): Promise<DocumentMeta | undefined> {
    return this.read('find document', () =>
      this.db.documents.where('[agentId+contentHash]').equals([agentId, contentHash]).first(),
    );
  }

  async deleteDocument(id: DocumentId): Promise<PassageId[]> {
    const db = this.db;
    return this.write('delete document', [db.documents, db.passages], async () => {
      const doc = await db.documents.get(id);
      if (!doc) throw new AppError('not_found', `No document with id "${id}".`);
      const ids = (await db.passages
        .where('source.documentId')
        .equals(id)
        .primaryKeys()) as PassageId[];
      await db.passages.bulkDelete(ids);
      await db.documents.delete(id);
      return ids;
    });
  }

  getTurn(id: TurnId): Promise<TurnRecord | undefined> {
    return this.read('read turn', () => this.db.turns.get(id));
  }

  listTurns(agentId: AgentId, status?: TurnRecord['status']): Promise<TurnRecord[]> {
    return this.read('list turns', async () => {
      const turns =
        status === undefined
          ? await this.db.turns.where('agentId').equals(agentId).toArray()
          : await this.db.turns.where('[agentId+status]').equals([agentId, status]).toArray();
      return turns.sort((a, b) => a.startedAt - b.startedAt);
    });
  }

  listSteps(turnId: TurnId): Promise<StepRecord[]> {
    return this.read('list steps', () =>
      this.db.steps
        .where('[turnId+step]')
        .between([turnId, Dexie.minKey], [turnId, Dexie.maxKey])
        .toArray(),
    );
  }

  getSetting<T>(key: string): Promise<T | undefined> {
    return this.read(
      'read setting',
      async () => (await this.db.settings.get(key))?.value as T | undefined,
    );
  }

  async setSetting(key: string, value: unknown): Promise<void> {
    await this.write('save setting', [this.db.settings], async () => {
      await this.db.settings.put({ key, value });
    });
  }

  updateSetting<T>(
    key: string,
    update: (current: T | undefined) => T | undefined,
  ): Promise<T | undefined> {
    return this.write('save setting', [this.db.settings], async () => {
      const current = (await this.db.settings.get(key))?.value as T | undefined;
      const next = update(current);
      if (next !== current) await this.db.settings.put({ key, value: next });
      return next;
    });
  }

  stats(agentId?: AgentId): Promise<Record<TierName, TierStats>> {
    return this.read('read stats', () => readTierStats(this.db, agentId));
  }

  async putVectors(agentId: AgentId, batch: PackedVectors): Promise<void> {
    if (batch.data.length !== batch.ids.length * batch.dimension) {
      throw new AppError(
        'embedding_dimension_mismatch',
        `Packed vectors hold ${batch.data.length} floats, expected ${batch.ids.length} × ${batch.dimension}.`,
      );
    }
    if (batch.ids.length === 0) return;
    const db = this.db;
    await this.write('save vectors', [db.vectors], () => appendVectors(db, agentId, batch));
  }

  loadVectors(agentId: AgentId, modelId?: string): Promise<PackedVectors[]> {
    return this.read('load vectors', async () => {
      const rows =
        modelId === undefined
          ? await this.db.vectors.where('agentId').equals(agentId).sortBy('rowId')
          : await this.db.vectors
              .where('[agentId+modelId]')
              .equals([agentId, modelId])
              .sortBy('rowId');
      return rows.map(({ kind, modelId: m, dimension, ids, data }) => ({
        kind,
        modelId: m,
        dimension,
        ids,
        data,
      }));
    });
  }

  /** Rows and approximate bytes of the packed vector batches (not a `TierName`). */
  vectorStats(agentId?: AgentId): Promise<TierStats & { vectors: number }> {
    return this.read('read vector stats', () => readVectorStats(this.db, agentId));
  }

  close(): void {
    this.db.close();
  }
}
