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
import type { StoreTableName } from '../../../core/ports/store-tables';
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
  /** Rewrites the rows; calls `report` as it goes with the rows done of the rows it will rewrite. */
  upgrade?: (tx: Transaction, report: (done: number, total: number) => void) => Promise<void>;
}

/**
 * How far a running schema upgrade has come (U215): `done` of `total` messages rewritten for the
 * upgrade to `toVersion`. The first report (done 0) comes before any row is rewritten.
 */
export interface UpgradeProgress {
  toVersion: number;
  done: number;
  total: number;
}

/**
 * Rows read and rewritten per step of an upgrade, and so per progress report. Pages are read by
 * primary key (one `getAll` each, resuming above the last key) and written back with `bulkPut`
 * (ADR 0171; no speed-up over `Collection.modify` was shown on this machine).
 */
export const UPGRADE_PAGE = 2_000;

/** v1's tables and indexes, as the first release declared them: every table but conversations. */
const V1_STORES: Record<Exclude<StoreTableName, 'conversations'>, string> = {
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
    } satisfies Record<StoreTableName, string>,
    upgrade: upgradeToConversations,
  },
];

/** The title of the conversation the v2 upgrade makes for an agent's v1 messages. */
export { FIRST_CONVERSATION_TITLE };

/**
 * v1 → v2: one conversation per agent (and per agent id that only messages or summaries name),
 * holding all of its messages and summaries. Rows keep their ids, seqs and every other field.
 */
async function upgradeToConversations(
  tx: Transaction,
  report: (done: number, total: number) => void,
): Promise<void> {
  const spans = new Map<AgentId, { first: number; last: number }>();
  const seen = (agentId: AgentId, at: number): void => {
    const span = spans.get(agentId);
    if (!span) spans.set(agentId, { first: at, last: at });
    else {
      if (at < span.first) span.first = at;
      if (at > span.last) span.last = at;
    }
  };
  const messages = tx.table<MessageRow, string>('messages');
  const total = await messages.count();
  report(0, total);
  let done = 0;
  let after: string | null = null;
  for (;;) {
    const page: MessageRow[] = await (
      after === null ? messages.orderBy(':id') : messages.where(':id').above(after)
    )
      .limit(UPGRADE_PAGE)
      .toArray();
    if (page.length === 0) break;
    for (const m of page) {
      if (m.conversationId === undefined) m.conversationId = defaultConversationId(m.agentId);
      seen(m.agentId, m.at);
    }
    await messages.bulkPut(page);
    after = page[page.length - 1]!.id;
    done += page.length;
    report(Math.min(done, total), total);
  }
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

  /**
   * `onUpgrade` hears each running upgrade's progress (U215); an error it throws aborts the
   * upgrade transaction, so the database stays at its old version with every row (S29).
   */
  constructor(
    name: string,
    upTo: number = CURRENT_SCHEMA_VERSION,
    onUpgrade?: (progress: UpgradeProgress) => void,
  ) {
    super(name);
    for (const v of SCHEMA_VERSIONS) {
      if (v.version > upTo) continue;
      const declared = this.version(v.version).stores(v.stores);
      const upgrade = v.upgrade;
      if (upgrade)
        declared.upgrade((tx) =>
          upgrade(tx, (done, total) => onUpgrade?.({ toVersion: v.version, done, total })),
        );
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
