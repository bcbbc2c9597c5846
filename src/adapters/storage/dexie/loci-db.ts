import { Dexie, type Table } from 'dexie';
import type {
  Agent,
  BlockVersion,
  CoreBlock,
  DocumentMeta,
  Message,
  Passage,
  SettingRow,
  StepRecord,
  Summary,
  TurnRecord,
} from '../../../core/model';
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
 */
export const SCHEMA_VERSIONS: ReadonlyArray<{ version: number; stores: Record<string, string> }> = [
  {
    version: 1,
    stores: {
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
    },
  },
];

export const CURRENT_SCHEMA_VERSION = SCHEMA_VERSIONS[SCHEMA_VERSIONS.length - 1]!.version;

/** The IndexedDB database of Loci, typed. */
export class LociDb extends Dexie {
  agents!: Table<Agent, string>;
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
      if (v.version <= upTo) this.version(v.version).stores(v.stores);
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
