/**
 * The backup file: one JSON document, versioned. Records are the model's own (`src/core/model`),
 * except that embeddings travel as base64 of their little-endian Float32 bytes. An encrypted
 * backup wraps the same JSON text in an {@link EncryptedEnvelope}.
 */
import type {
  Agent,
  AgentId,
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
} from '../model';
import type { VectorKind } from '../ports/vector-index';
import type { EpochMs } from '../units';

export const BACKUP_FORMAT = 'loci-backup';
export const ENCRYPTED_FORMAT = 'loci-backup-encrypted';
/**
 * The version this build writes; it reads versions up to this one. 2: the `conversations` table
 * (S25, ADR 0154); a version 1 file has none and its messages go to each agent's first
 * conversation.
 */
export const BACKUP_VERSION = 2;
/** OWASP 2023 guidance for PBKDF2-HMAC-SHA-256. */
export const PBKDF2_ITERATIONS = 600_000;
/** Iteration counts accepted on import (an attacker-chosen huge count would hang the tab). */
export const PBKDF2_MAX_ITERATIONS = 10_000_000;

export type BackupScope = { type: 'all' } | { type: 'agent'; agentId: AgentId };

/** A passage as written in a backup: the embedding as base64 (or null). */
export type BackupPassage = Omit<Passage, 'embedding'> & { embedding: string | null };

/** A packed batch of message vectors as written in a backup (`data` is base64). */
export interface BackupVectors {
  agentId: AgentId;
  kind: VectorKind;
  modelId: string;
  dimension: number;
  ids: string[];
  data: string;
}

/** The tables of a backup, in the form they are written to the file. */
export interface BackupTables {
  agents: Agent[];
  /** Absent from version 1 files (before conversations). */
  conversations?: Conversation[];
  blocks: CoreBlock[];
  blockHistory: BlockVersion[];
  messages: Message[];
  summaries: Summary[];
  passages: BackupPassage[];
  documents: DocumentMeta[];
  turns: TurnRecord[];
  steps: StepRecord[];
  settings: SettingRow[];
  vectors: BackupVectors[];
}

export interface BackupFile {
  format: typeof BACKUP_FORMAT;
  version: number;
  exportedAt: EpochMs;
  scope: BackupScope;
  tables: BackupTables;
}

/** A decoded, validated backup: embeddings are `Float32Array`s again, ready to write. */
export interface DecodedBackup {
  version: number;
  exportedAt: EpochMs;
  scope: BackupScope;
  /**
   * Records left out because they referred to deleted messages or passages (S41); absent where
   * the rows came from the backup worker in slices (nothing is counted then).
   */
  leftOut?: BackupLeftOut;
  tables: Omit<BackupTables, 'conversations' | 'passages' | 'vectors'> & {
    /** Every conversation its messages and summaries name (made for a version 1 file). */
    conversations: Conversation[];
    passages: Passage[];
    vectors: Array<Omit<BackupVectors, 'data'> & { data: Float32Array }>;
  };
}

/**
 * What an import left out of a file of an earlier version (S41): turns whose trigger message had
 * been deleted, their steps, and vectors of deleted messages or passages.
 */
export interface BackupLeftOut {
  turns: number;
  steps: number;
  vectors: number;
}

export interface EncryptedEnvelope {
  format: typeof ENCRYPTED_FORMAT;
  version: number;
  kdf: { name: 'PBKDF2'; hash: 'SHA-256'; iterations: number; salt: string };
  cipher: { name: 'AES-GCM'; iv: string };
  /** base64 of AES-GCM(ciphertext ‖ tag) of the UTF-8 JSON text of a {@link BackupFile}. */
  ciphertext: string;
}

/** What is wrong with a backup, and where (a JSON path such as `tables.messages[3].seq`). */
export interface BackupProblem {
  code: 'backup_invalid' | 'backup_unsupported_version';
  path: string;
  message: string;
}
