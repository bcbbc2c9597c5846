import { Dexie, type Table, type Transaction } from 'dexie';
import type {
  Agent,
  BlockVersion,
  Conversation,
  CoreBlock,
  DocumentMeta,
  Message,
  Passage,
  SettingRow,
  StepRecord,
  Summary,
  TurnRecord,
  AgentId,
} from '../../../core/model';
import { defaultConversationId, FIRST_CONVERSATION_TITLE } from '../../../core/model';
import type { VectorKind } from '../../../core/ports/vector-index';

/**
 * A message as stored: the model's `Message` plus `ctx`, a 0/1 copy of `inContext`, because
 * IndexedDB cannot index booleans and "the messages in the window" must be one index range.
 */
export type MessageRow = Message & { ctx: 0 | 1 };

/** One packed batch of vectors (see `VectorStore`): many vectors per row load far faster. */
export interface VectorRow {
  rowId?: number;
  agentId: string;
  kind: VectorKind;
  modelId: string;
  dimension: number;
  ids: string[];
  data: Float32Array;
}

/**
 * The schema, version by version. Never edit a published version: add a new one with an
 * `upgrade` (see `schema.test.ts`, one migration test per version).
 *
 * v1: every tier of the model, with the indexes the store's queries use.
 * v2: conversations (ADR 0151). A `conversations` table; messages and summaries carry a
 * `conversationId` and gain the per-conversation indexes of the queue and the summary chain.
 * The upgrade gives every agent one conversation and moves all its messages and summaries there
 * (seqs unchanged).
 */
export interface SchemaVersion {
  version: number;
  stores: Record<string, string>;
  upgrade?: (tx: Transaction) => Promise<void>;
}

/** v1's tables and indexes, as the first release declared them. */
const V1_STORES: Record<string, string> = {
  agents: 'id',
  blocks: '[agentId+label], agentId',
  blockHistory: '[agentId+label+version], agentId',
  messages: 'id, [agentId+seq], [agentId+ctx+seq], [agentId+at]',
  summaries: 'id, [agentId+version], agentId',
  passages: 'id, [agentId+at], [agentId+source.type], source.documentId, agentId',
  documents: 'id, agentId, [agentId+contentHash]',
  turns: 'id, agentId, [agentId+status]',
  steps: '[turnId+step], agentId',
  settings: 'key',
  vectors: '++rowId, agentId, [agentId+modelId]',
};

export const SCHEMA_VERSIONS: readonly SchemaVersion[] = [
  { version: 1, stores: V1_STORES },
  {
    version: 2,
    // Every table again (Dexie reads each version whole); what v2 adds or changes:
    stores: {
      ...V1_STORES,
      conversations: 'id, agentId, [agentId+updatedAt]',
      messages: `${V1_STORES.messages}, [conversationId+seq], [conversationId+ctx+seq]`,
      summaries: `${V1_STORES.summaries}, [conversationId+version]`,
    },
    upgrade: upgradeToConversations,
  },
];

/** The title of the conversation the v2 upgrade makes for an agent's v1 messages. */
export { FIRST_CONVERSATION_TITLE };

/**
 * v1 → v2: one conversation per agent (and per agent id that only messages or summaries name),
 * holding all of its messages and summaries. Rows keep their ids, seqs and every other field.
 */
async function upgradeToConversations(tx: Transaction): Promise<void> {
  const spans = new Map<AgentId, { first: number; last: number }>();
  const seen = (agentId: AgentId, at: number): void => {
    const span = spans.get(agentId);
    if (!span) spans.set(agentId, { first: at, last: at });
    else {
      if (at < span.first) span.first = at;
      if (at > span.last) span.last = at;
    }
  };
  await tx
    .table('messages')
    .toCollection()
    .modify((m: MessageRow) => {
      if (m.conversationId === undefined) m.conversationId = defaultConversationId(m.agentId);
      seen(m.agentId, m.at);
    });
  await tx
    .table('summaries')
    .toCollection()
    .modify((s: Summary) => {
      if (s.conversationId === undefined) s.conversationId = defaultConversationId(s.agentId);
      seen(s.agentId, s.at);
    });
  const agents = (await tx.table('agents').toArray()) as Agent[];
  for (const a of agents) seen(a.id, a.createdAt);
  const rows: Conversation[] = [...spans].map(([agentId, span]) => ({
    id: defaultConversationId(agentId),
    agentId,
    title: FIRST_CONVERSATION_TITLE,
    createdAt: span.first,
    updatedAt: span.last,
  }));
  await tx.table('conversations').bulkPut(rows);
}

export const CURRENT_SCHEMA_VERSION = SCHEMA_VERSIONS[SCHEMA_VERSIONS.length - 1]!.version;

/** The IndexedDB database of Loci, typed. */
export class LociDb extends Dexie {
  agents!: Table<Agent, string>;
  /** Schema v2 and later. */
  conversations!: Table<Conversation, string>;
  blocks!: Table<CoreBlock, [string, string]>;
  blockHistory!: Table<BlockVersion, [string, string, number]>;
  messages!: Table<MessageRow, string>;
  summaries!: Table<Summary, string>;
  passages!: Table<Passage, string>;
  documents!: Table<DocumentMeta, string>;
  turns!: Table<TurnRecord, string>;
  steps!: Table<StepRecord, [string, number]>;
  settings!: Table<SettingRow, string>;
  vectors!: Table<VectorRow, number>;
  /**
   * Set when another tab upgraded the database to a newer schema: this connection is closed for
   * good (no automatic reopen), and every later read or write fails with `storage_newer_version`.
   */
  upgradedElsewhere: number | null = null;

  constructor(name: string, upTo: number = CURRENT_SCHEMA_VERSION) {
    super(name);
    for (const v of SCHEMA_VERSIONS) {
      if (v.version > upTo) continue;
      const declared = this.version(v.version).stores(v.stores);
      if (v.upgrade) declared.upgrade(v.upgrade);
    }
    // Dexie's default closes and reopens on the next call — and a reopen of a newer database
    // succeeds (Dexie retries without a version), so this tab would write rows of its old shape
    // into the new schema. Close for good instead; the app asks for a reload (ADR 0150).
    // A delete (newVersion null) keeps Dexie's default.
    this.on('versionchange', (event: IDBVersionChangeEvent) => {
      if (event.newVersion === null || event.newVersion === 0) return undefined;
      this.upgradedElsewhere = event.newVersion;
      this.close({ disableAutoOpen: true });
      return false;
    });
  }
}
