/**
 * The memory store: Loci's "disk". Core code sees storage only through this port; the Dexie
 * adapter (`src/adapters/storage/dexie`) implements it over IndexedDB and an in-memory one can
 * implement it for tests.
 */
import type { LiveQueries } from './live-queries';
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
  MessageRole,
  Passage,
  PassageId,
  ReplyVersion,
  StepRecord,
  Summary,
  TurnId,
  TurnRecord,
} from '../model';
import type { EpochMs } from '../units';
import { STORE_TABLES, withoutTables } from './store-tables';

/** A new message; the store assigns `seq` inside the transaction that writes it. */
export type NewMessage = Omit<Message, 'seq'>;

/** A block write: the new value becomes version `block.version`, with its history row. */
export interface BlockWrite {
  block: CoreBlock;
  history: BlockVersion;
}

/**
 * Every write that belongs together, applied in one transaction: all of it lands or none of it
 * does. One model step is one change set (its tool effect + its step record), which is what makes
 * turns crash-safe.
 */
export interface ChangeSet {
  agents?: Agent[];
  /** Upserts by id (create, rename, touch `updatedAt`). */
  conversations?: Conversation[];
  blocks?: BlockWrite[];
  messages?: NewMessage[];
  /** Moves messages in or out of the context window (eviction, reload). */
  inContext?: { ids: MessageId[]; inContext: boolean };
  summaries?: Summary[];
  passages?: Passage[];
  deletePassages?: PassageId[];
  documents?: DocumentMeta[];
  turns?: TurnRecord[];
  steps?: StepRecord[];
}

/** What {@link MemoryStore.apply} wrote, with the seqs it assigned. */
export interface Applied {
  messages: Message[];
}

export interface MessageQuery {
  /** Only this conversation's messages (its queue, its history); absent: all of the agent's. */
  conversationId?: ConversationId;
  /** Inclusive seq bounds. */
  fromSeq?: number;
  toSeq?: number;
  inContext?: boolean;
  roles?: MessageRole[];
  from?: EpochMs;
  to?: EpochMs;
  /** Newest first when true; oldest first otherwise. */
  reverse?: boolean;
  offset?: number;
  limit?: number;
  /**
   * Read the rows one at a time rather than in one result (X189). Slower for many small rows,
   * but no single step decodes more than one row: the chat's window asks for it on the page,
   * where a row may hold megabytes (a 1 MB reply is stored twice, as text and in its tool call)
   * and 200 of them decoded in one result blocked the page for half a second. Stores that hold
   * the rows in memory ignore it.
   */
  oneByOne?: boolean;
}

export interface PassageQuery {
  sourceType?: Passage['source']['type'];
  documentId?: DocumentId;
  offset?: number;
  limit?: number;
}

/**
 * What {@link MemoryStore.deleteConversation} removed, row for row, so that an undo can put it
 * back exactly as it was (ids and seqs kept).
 */
export interface DeletedConversation {
  conversation: Conversation;
  messages: Message[];
  summaries: Summary[];
  /** The turns its messages triggered, deleted with them, and those turns' steps (S40). */
  turns: TurnRecord[];
  steps: StepRecord[];
}

/**
 * What {@link MemoryStore.deleteMessages} removed, row for row, for an undo: the messages, and
 * the turns they triggered with those turns' steps (S40). A turn whose trigger is gone would
 * refer to nothing: the chat cannot show it, Retry cannot run it, and a backup holding it could
 * not be imported.
 */
export interface DeletedMessageRows {
  messages: Message[];
  turns: TurnRecord[];
  steps: StepRecord[];
}

/**
 * One move of a reply's versions (U331, ADR 0213), for {@link MemoryStore.swapMessages}: the rows
 * that leave the chat, the rows that come back, and the versions the trigger holds afterwards.
 */
export interface MessageSwap {
  /** Deleted as {@link MemoryStore.deleteMessages} deletes (S40). */
  remove: MessageId[];
  /** Put back as {@link MemoryStore.restoreMessages} puts back. */
  restore: DeletedMessageRows;
  /**
   * The message whose `otherVersions` becomes `otherVersions` (none clears it), followed, with
   * `holdRemoved`, by the removed rows as one more version when any were removed.
   */
  holder: { id: MessageId; otherVersions: ReplyVersion[]; holdRemoved?: boolean };
}

/** Row counts and approximate bytes of one tier. */
export interface TierStats {
  rows: number;
  bytes: number;
}

/**
 * The tiers the storage dashboard counts, in the order it shows them: the store's tables but
 * `conversations` and `settings` (not memory tiers: a chat's title and times, and preferences)
 * and `vectors` (packed batches, counted by vector rather than by row: the Dexie store's
 * `vectorStats`).
 */
export const TIER_NAMES = withoutTables(STORE_TABLES, ['conversations', 'settings', 'vectors']);

export type TierName = (typeof TIER_NAMES)[number];

export interface MemoryStore extends LiveQueries {
  apply(changes: ChangeSet): Promise<Applied>;

  getAgent(id: AgentId): Promise<Agent | undefined>;
  listAgents(): Promise<Agent[]>;
  /** Deletes the agent and everything it owns, in one transaction. */
  deleteAgent(id: AgentId): Promise<void>;

  /** The agent's conversations, most recently updated first. */
  listConversations(agentId: AgentId): Promise<Conversation[]>;
  getConversation(id: ConversationId): Promise<Conversation | undefined>;
  /**
   * Deletes a conversation with its messages and summaries in one transaction and returns them;
   * core blocks and archival memory (the agent's) stay. The turns its messages triggered go too,
   * with their steps and the messages' vectors, as {@link deleteMessages} does (S40). Rejects
   * with `not_found`.
   */
  deleteConversation(id: ConversationId): Promise<DeletedConversation>;
  /** Puts a deleted conversation back (undo), rows as they were, in one transaction. */
  restoreConversation(deleted: DeletedConversation): Promise<void>;

  listBlocks(agentId: AgentId): Promise<CoreBlock[]>;
  getBlock(agentId: AgentId, label: string): Promise<CoreBlock | undefined>;
  blockHistory(agentId: AgentId, label: string): Promise<BlockVersion[]>;

  getMessages(ids: MessageId[]): Promise<Message[]>;
  queryMessages(agentId: AgentId, query?: MessageQuery): Promise<Message[]>;
  countMessages(agentId: AgentId, query?: MessageQuery): Promise<number>;
  lastSeq(agentId: AgentId): Promise<number>;
  /**
   * Deletes these messages (of one agent) in one transaction and resolves with the removed rows,
   * whole, messages in seq order: hand them to {@link restoreMessages} to undo. Unknown ids are
   * ignored. A deleted seq is never handed out again (the store keeps a high-water mark), so a
   * restore cannot collide with a message written after the delete (S22, ADR 0143). The turns
   * the messages triggered go with them, with their steps, and a store that keeps message
   * vectors drops theirs: nothing left refers to a deleted message (S40, ADR 0185).
   */
  deleteMessages(ids: MessageId[]): Promise<DeletedMessageRows>;
  /**
   * Puts rows removed by {@link deleteMessages} back with their own ids and seqs, in one
   * transaction. A message whose id or seq is taken aborts the whole restore (`invalid_argument`).
   * Vectors are not put back: search embeds the restored messages again.
   */
  restoreMessages(deleted: DeletedMessageRows): Promise<void>;
  /**
   * Moves a reply's versions in one transaction (U331, S43): deletes `remove` with what refers to
   * them, puts `restore` back, and sets the holder's `otherVersions`; resolves with the removed
   * rows. All of it lands or none: a taken id or seq is `invalid_argument`, a holder that is not
   * there `not_found`, and nothing is written.
   */
  swapMessages(swap: MessageSwap): Promise<DeletedMessageRows>;

  /** The newest summary of the conversation (of any of the agent's when none is named). */
  latestSummary(agentId: AgentId, conversationId?: ConversationId): Promise<Summary | undefined>;
  listSummaries(agentId: AgentId, conversationId?: ConversationId): Promise<Summary[]>;

  getPassages(ids: PassageId[]): Promise<Passage[]>;
  queryPassages(agentId: AgentId, query?: PassageQuery): Promise<Passage[]>;
  countPassages(agentId: AgentId, query?: PassageQuery): Promise<number>;

  getDocument(id: DocumentId): Promise<DocumentMeta | undefined>;
  listDocuments(agentId: AgentId): Promise<DocumentMeta[]>;
  findDocumentByHash(agentId: AgentId, contentHash: string): Promise<DocumentMeta | undefined>;
  /** Deletes a document and its passages in one transaction; returns the deleted passage ids. */
  deleteDocument(id: DocumentId): Promise<PassageId[]>;

  getTurn(id: TurnId): Promise<TurnRecord | undefined>;
  listTurns(agentId: AgentId, status?: TurnRecord['status']): Promise<TurnRecord[]>;
  listSteps(turnId: TurnId): Promise<StepRecord[]>;

  getSetting<T>(key: string): Promise<T | undefined>;
  setSetting(key: string, value: unknown): Promise<void>;
  /**
   * Reads a setting and writes `update(current)` in one transaction, so no other write (another
   * tab, a running turn) can land between the read and the write. `update` must be synchronous;
   * returning `current` itself writes nothing. Resolves with the value now stored.
   */
  updateSetting<T>(
    key: string,
    update: (current: T | undefined) => T | undefined,
  ): Promise<T | undefined>;

  stats(agentId?: AgentId): Promise<Record<TierName, TierStats>>;
}
