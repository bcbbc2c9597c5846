import type { Table } from 'dexie';
import { AppError } from '../../core/errors';
import { encodeBase64, float32ToBytes } from '../../core/backup/base64';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  type BackupFile,
  type BackupTables,
} from '../../core/backup/backup-format';
import type { AgentId, Message, Passage } from '../../core/model';
import type { DexieMemoryStore } from '../storage/dexie/dexie-memory-store';
import type { MessageRow, VectorRow } from '../storage/dexie/loci-db';
import { STORE_TABLES } from '../../core/ports/store-tables';
import { toStorageError } from '../storage/dexie/storage-error';
import { encryptBackup, encryptBackupBlob } from './backup-crypto';

export interface ExportOptions {
  /** Only this agent and what it owns (settings are global and left out); all agents otherwise. */
  agentId?: AgentId;
  /** Encrypts the file (AES-GCM, PBKDF2-SHA-256 key) when given and not empty. */
  passphrase?: string;
  /** PBKDF2 iterations (tests may lower it; never below 600,000 in the app). */
  iterations?: number;
  now?: () => number;
}

const b64floats = (v: Float32Array) => encodeBase64(float32ToBytes(v));

/** Reads the tables of a backup in one read transaction, so the snapshot is consistent. */
export async function readBackupTables(
  store: DexieMemoryStore,
  agentId?: AgentId,
): Promise<BackupTables> {
  const db = store.db;
  try {
    return await db.transaction('r', db.tables, async () => {
      const owned = <T>(table: Table<T>) =>
        agentId === undefined ? table.toArray() : table.where('agentId').equals(agentId).toArray();
      const messages = (await owned<MessageRow>(db.messages)).map(
        ({ ctx: _ctx, ...m }): Message => m,
      );
      const passages = (await owned(db.passages)).map((p) => ({
        ...p,
        embedding: p.embedding ? b64floats(p.embedding) : null,
      }));
      const vectors = (await owned(db.vectors)).map(({ rowId: _rowId, data, ...v }) => ({
        ...v,
        data: b64floats(data),
      }));
      return {
        agents:
          agentId === undefined
            ? await db.agents.toArray()
            : await db.agents.where('id').equals(agentId).toArray(),
        // The agent's conversations (S25); a schema v1 database has none to write.
        conversations: store.hasConversations ? await owned(db.conversations) : [],
        blocks: await owned(db.blocks),
        blockHistory: await owned(db.blockHistory),
        messages,
        summaries: await owned(db.summaries),
        passages,
        documents: await owned(db.documents),
        turns: await owned(db.turns),
        steps: await owned(db.steps),
        settings: agentId === undefined ? await db.settings.toArray() : [],
        vectors,
      };
    });
  } catch (error) {
    throw toStorageError(error, 'export a backup');
  }
}

/**
 * The backup's JSON text in parts: the head, then each record serialised on its own (X170, ADR
 * 0164). Joined, the parts are exactly `JSON.stringify` of the {@link BackupFile}; kept apart
 * (e.g. as `new Blob(parts)`), no single string has to hold the whole library, so a backup of
 * several hundred MB no longer fails with V8's "Invalid string length".
 */
export function backupFileParts(file: BackupFile): string[] {
  const parts: string[] = [];
  const head = JSON.stringify({ ...file, tables: {} });
  parts.push(head.slice(0, -2)); // ends with `"tables":{`
  Object.entries(file.tables).forEach(([name, rows]: [string, unknown[]], t) => {
    parts.push(`${t === 0 ? '' : ','}${JSON.stringify(name)}:[`);
    rows.forEach((row, i) => parts.push(`${i === 0 ? '' : ','}${JSON.stringify(row)}`));
    parts.push(']');
  });
  parts.push('}}');
  return parts;
}

/** Rows read from the database at a time while writing the parts (at 64 KB a message, 16 MB). */
export const EXPORT_PAGE_ROWS = 256;

type TableName = keyof BackupTables;

/** How a stored row becomes its backup record, where the record is not the row itself. */
const TO_RECORD: Partial<Record<TableName, (row: never) => unknown>> = {
  messages: ({ ctx: _ctx, ...m }: MessageRow): Message => m,
  passages: (p: Passage) => ({ ...p, embedding: p.embedding ? b64floats(p.embedding) : null }),
  vectors: ({ rowId: _rowId, data, ...v }: VectorRow) => ({ ...v, data: b64floats(data) }),
};

/**
 * The tables in file order ({@link STORE_TABLES}), each with how to list its keys (in the order
 * `toArray` gives) and how to turn a stored row into its backup record. `null` leaves the table
 * out of the file: a schema v1 database has no conversations, and settings are global, so a
 * one-agent backup has none.
 */
function tableReaders(
  store: DexieMemoryStore,
  agentId: AgentId | undefined,
): Array<[TableName, Table<unknown, unknown> | null, (row: never) => unknown]> {
  const db = store.db;
  const same = (row: unknown) => row;
  const leftOut = (name: TableName) =>
    (name === 'conversations' && !store.hasConversations) ||
    (name === 'settings' && agentId !== undefined);
  return STORE_TABLES.map((name) => [
    name,
    leftOut(name) ? null : db.table(name),
    TO_RECORD[name] ?? same,
  ]);
}

/**
 * Writes the backup's JSON text as parts (ADR 0164, 0176), reading the database in one read
 * transaction (a consistent snapshot) but {@link EXPORT_PAGE_ROWS} rows at a time: the keys of a
 * table are listed first, then its rows are fetched a page at a time and each is serialised at
 * once, so only the text of the file and one page of rows are ever held, never every row as an
 * object beside its text. Joined, the parts are `JSON.stringify` of the same {@link BackupFile}
 * that {@link readBackupTables} and {@link backupFileParts} give.
 */
export async function writeBackupParts(
  store: DexieMemoryStore,
  head: Omit<BackupFile, 'tables'>,
  agentId: AgentId | undefined,
  pageRows: number = EXPORT_PAGE_ROWS,
): Promise<string[]> {
  const parts: string[] = [];
  await emitBackupText(store, head, agentId, (part) => parts.push(part), pageRows);
  return parts;
}

/** {@link writeBackupParts}, handing each part to `emit` as it is made instead of keeping it. */
async function emitBackupText(
  store: DexieMemoryStore,
  head: Omit<BackupFile, 'tables'>,
  agentId: AgentId | undefined,
  emit: (part: string) => void,
  pageRows: number,
): Promise<void> {
  const db = store.db;
  const text = JSON.stringify({ ...head, tables: {} });
  emit(text.slice(0, -2)); // ends with `"tables":{`
  try {
    await db.transaction('r', db.tables, async () => {
      let t = 0;
      for (const [name, table, toRecord] of tableReaders(store, agentId)) {
        emit(`${t === 0 ? '' : ','}${JSON.stringify(name)}:[`);
        t += 1;
        if (table !== null) {
          const keys =
            agentId === undefined
              ? await table.toCollection().primaryKeys()
              : name === 'agents'
                ? await table.where('id').equals(agentId).primaryKeys()
                : await table.where('agentId').equals(agentId).primaryKeys();
          for (let from = 0; from < keys.length; from += pageRows) {
            const rows = await table.bulkGet(keys.slice(from, from + pageRows));
            rows.forEach((row, i) => {
              // A key listed in this transaction has its row in it: the snapshot is consistent.
              if (row === undefined) throw new Error(`A ${name} row vanished during the export.`);
              emit(`${from + i === 0 ? '' : ','}${JSON.stringify(toRecord(row as never))}`);
            });
          }
        }
        emit(']');
      }
    });
  } catch (error) {
    throw toStorageError(error, 'export a backup');
  }
  emit('}}');
}

/**
 * Characters of text gathered before they are sealed into one `Blob` (X243): the string parts
 * of an export are held only up to this, so a 1 GB library is never held as strings.
 */
export const EXPORT_BLOB_CHARS = 1 << 20;

/**
 * Gathers text into a `Blob` a bounded piece at a time (X243): parts are kept as strings only
 * until they add up to {@link EXPORT_BLOB_CHARS}, then sealed into a `Blob` (whose bytes the
 * browser keeps outside the JS heap, on disk when large) and let go.
 */
export class BoundedBlobWriter {
  private parts: string[] = [];
  private chars = 0;
  private readonly blobs: Blob[] = [];
  /** Most characters held as strings at once so far (tests, and the export's figures). */
  peakChars = 0;

  constructor(private readonly limitChars: number = EXPORT_BLOB_CHARS) {}

  /** Adds `text` (or a `Blob`, which is kept as it is) at the end. */
  write(text: string | Blob): void {
    if (typeof text !== 'string') {
      this.seal();
      this.blobs.push(text);
      return;
    }
    this.parts.push(text);
    this.chars += text.length;
    this.peakChars = Math.max(this.peakChars, this.chars);
    if (this.chars >= this.limitChars) this.seal();
  }

  /** The whole text written, as one `Blob` of the sealed pieces. */
  finish(type = 'application/json'): Blob {
    this.seal();
    return new Blob(this.blobs, { type });
  }

  private seal(): void {
    if (this.parts.length === 0) return;
    this.blobs.push(new Blob(this.parts));
    this.parts = [];
    this.chars = 0;
  }
}

/**
 * Exports everything (or one agent) as parts of one versioned JSON text — agents, their
 * conversations, blocks with
 * their full history, messages, summaries, passages with embeddings, documents, turns, steps,
 * settings and message vectors — optionally encrypted with a passphrase (an encrypted backup is
 * one part: AES-GCM seals the whole text at once).
 */
export async function exportBackupParts(
  store: DexieMemoryStore,
  options: ExportOptions = {},
): Promise<string[]> {
  const parts = await writeBackupParts(store, await exportHead(store, options), options.agentId);
  // An empty passphrase field means "do not encrypt", not "encrypt with the empty string".
  if (!options.passphrase) return parts;
  return [
    JSON.stringify(await encryptBackup(parts.join(''), options.passphrase, options.iterations)),
  ];
}

/** The head of an export of `options.agentId` (or everything); `not_found` for no such agent. */
async function exportHead(
  store: DexieMemoryStore,
  options: ExportOptions,
): Promise<Omit<BackupFile, 'tables'>> {
  if (options.agentId !== undefined && !(await store.getAgent(options.agentId))) {
    throw new AppError('not_found', `There is no agent "${options.agentId}" to export.`);
  }
  return {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    exportedAt: (options.now ?? Date.now)(),
    scope:
      options.agentId === undefined ? { type: 'all' } : { type: 'agent', agentId: options.agentId },
  };
}

/**
 * Exports everything (or one agent) as one `Blob` of the same text as {@link exportBackupParts}
 * (X243, ADR 0192): each part goes into a {@link BoundedBlobWriter} as it is made, so no more
 * than {@link EXPORT_BLOB_CHARS} of the file's text is ever held as strings, whatever the size
 * of the library. With a passphrase, the plain text's Blob is sealed as bytes and the envelope
 * written in pieces too ({@link encryptBackupBlob}).
 */
export async function exportBackupBlob(
  store: DexieMemoryStore,
  options: ExportOptions = {},
  pageRows: number = EXPORT_PAGE_ROWS,
): Promise<Blob> {
  const writer = new BoundedBlobWriter();
  await emitBackupText(
    store,
    await exportHead(store, options),
    options.agentId,
    (part) => writer.write(part),
    pageRows,
  );
  const plain = writer.finish();
  // An empty passphrase field means "do not encrypt", not "encrypt with the empty string".
  if (!options.passphrase) return plain;
  return encryptBackupBlob(plain, options.passphrase, options.iterations);
}

/** {@link exportBackupParts} as one text (tests, small backups). */
export async function exportBackup(
  store: DexieMemoryStore,
  options: ExportOptions = {},
): Promise<string> {
  return (await exportBackupParts(store, options)).join('');
}
