import { AppError } from '../../core/errors';
import type { BackupImportProgress } from '../../core/ports/backup';
import { AGENT_OWNED_TABLES } from '../../core/ports/store-tables';
import { ENCRYPTED_FORMAT, type DecodedBackup } from '../../core/backup/backup-format';
import { validateBackup } from '../../core/backup/validate-backup';
import type { DexieMemoryStore } from '../storage/dexie/dexie-memory-store';
import { toStorageError } from '../storage/dexie/storage-error';
import { decryptBackup } from './backup-crypto';
import { SliceSizer } from './slice-sizer';

/** Largest backup text read (UTF-16 chars); beyond it the tab would likely run out of memory. */
export const MAX_BACKUP_CHARS = 1 << 30;

/** Messages written per `bulkPut` of an import, at first (ADR 0170; sized as it goes, ADR 0172). */
export const WRITE_SLICE = 500;

export interface ImportOptions {
  passphrase?: string;
  /** Told how far the import is (X188); a reader tells `reading` and `checking` only. */
  onProgress?: (progress: BackupImportProgress) => void;
  /**
   * Cancels the import (X196): the writer checks it before every slice and before the commit,
   * and a cancelled transaction writes nothing.
   */
  signal?: AbortSignal;
}

/**
 * Throws `cancelled` once `signal` has aborted; inside the import's transaction, Dexie then
 * rolls it back (X196).
 */
export function stopIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted)
    throw new AppError('cancelled', 'The import was cancelled; nothing was imported.');
}

const now = (): number => globalThis.performance.now();

/**
 * Rows written per table, and `leftOut`: how many records of the file were left out because they
 * referred to deleted messages or passages (S41; 0 for a file without any).
 */
export type ImportSummary = Record<keyof DecodedBackup['tables'], number> & { leftOut?: number };

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new AppError(
      'backup_invalid',
      `${what} is not JSON: ${error instanceof Error ? error.message : String(error)}`,
      {
        path: '$',
      },
    );
  }
}

/** Parses, decrypts when needed and validates a backup text; writes nothing. */
export async function readBackup(
  text: string,
  options: ImportOptions = {},
): Promise<DecodedBackup> {
  options.onProgress?.({ type: 'checking' });
  if (text.length > MAX_BACKUP_CHARS) {
    throw new AppError(
      'backup_invalid',
      `The file is larger than the ${MAX_BACKUP_CHARS} characters a backup may have.`,
      {
        path: '$',
      },
    );
  }
  let value = parseJson(text, 'The file');
  if ((value as { format?: unknown } | null)?.format === ENCRYPTED_FORMAT) {
    value = parseJson(await decryptBackup(value, options.passphrase), 'The decrypted backup');
  }
  return readBackupValue(value);
}

/** Validates a parsed (and decrypted) backup value; writes nothing. */
export function readBackupValue(value: unknown): DecodedBackup {
  const result = validateBackup(value);
  if (!result.ok)
    throw new AppError(result.error.code, result.error.message, { path: result.error.path });
  return result.value;
}

/**
 * Imports a backup: validates the WHOLE file first, then writes it in one transaction. Each
 * agent in the file replaces the agent of the same id (and all it owns, its conversations
 * included); other agents are kept. A version 1 file's messages land in each agent's "First
 * conversation" (S25).
 * A full backup also replaces the settings. A bad file throws `backup_invalid`,
 * `backup_unsupported_version` or `backup_wrong_passphrase` and changes nothing.
 */
export async function importBackup(
  store: DexieMemoryStore,
  text: string,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  return writeBackup(store, await readBackup(text, options), options);
}

/**
 * Writes a validated backup in one transaction (see {@link importBackup}), telling
 * `onProgress` after each slice of messages written.
 */
export async function writeBackup(
  store: DexieMemoryStore,
  backup: DecodedBackup,
  options: Pick<ImportOptions, 'onProgress' | 'signal'> = {},
): Promise<ImportSummary> {
  const { signal } = options;
  const t = backup.tables;
  const db = store.db;
  const agentIds = new Set(t.agents.map((a) => a.id));
  const v2 = store.hasConversations;
  // A schema v1 database has no conversations table.
  const owned = AGENT_OWNED_TABLES.filter((name) => v2 || name !== 'conversations').map((name) =>
    db.table(name),
  );
  try {
    const totalMessages = t.messages.length;
    await db.transaction('rw', db.tables, async () => {
      // An id that belongs to an agent outside the file would be overwritten: refuse instead.
      const clashes: Array<[string, Array<{ id: string; agentId: string }>]> = [
        ...(v2 ? [['conversations', t.conversations] as [string, typeof t.conversations]] : []),
        ['messages', t.messages],
        ['passages', t.passages],
        ['documents', t.documents],
        ['summaries', t.summaries],
        ['turns', t.turns],
      ];
      // Looked up in slices too: one `bulkGet` of a million ids is one long task.
      const sizer = new SliceSizer(WRITE_SLICE);
      const totalRows = clashes.reduce((sum, [, rows]) => sum + rows.length, 0);
      let compared = 0;
      options.onProgress?.({ type: 'comparing', rows: 0, totalRows });
      for (const [name, rows] of clashes) {
        for (let from = 0; from < rows.length;) {
          stopIfCancelled(signal);
          const started = now();
          const ids = rows.slice(from, from + sizer.rows).map((r) => r.id);
          const got = db.table(name).bulkGet(ids);
          sizer.took(ids.length, now() - started);
          const existing = await got;
          existing.forEach((row: { agentId: string } | undefined, k) => {
            const i = from + k;
            if (row && !agentIds.has(row.agentId)) {
              throw new AppError(
                'backup_invalid',
                `tables.${name}[${i}].id is already used by agent "${row.agentId}" on this device.`,
                {
                  path: `tables.${name}[${i}].id`,
                },
              );
            }
          });
          from += ids.length;
          compared += ids.length;
          options.onProgress?.({ type: 'comparing', rows: compared, totalRows });
        }
      }
      for (const id of agentIds) {
        await db.agents.delete(id);
        for (const table of owned) await table.where('agentId').equals(id).delete();
      }
      if (backup.scope.type === 'all') await db.settings.clear();
      await db.agents.bulkPut(t.agents);
      if (v2) await db.conversations.bulkPut(t.conversations);
      await db.blocks.bulkPut(t.blocks);
      await db.blockHistory.bulkPut(t.blockHistory);
      options.onProgress?.({ type: 'writing', messages: 0, totalMessages });
      // In slices inside the one transaction (ADR 0170): each slice's requests are queued in
      // their own task, so a big file does not hold the page in one long task; a failure in
      // any slice still aborts the whole transaction. Dexie queues a slice's requests within
      // the `bulkPut` call, so its time sizes the next slice (ADR 0172).
      for (let i = 0; i < totalMessages;) {
        stopIfCancelled(signal);
        const started = now();
        const slice = t.messages
          .slice(i, i + sizer.rows)
          .map((m) => ({ ...m, ctx: m.inContext ? (1 as const) : (0 as const) }));
        const put = db.messages.bulkPut(slice);
        sizer.took(slice.length, now() - started);
        await put;
        i += slice.length;
        options.onProgress?.({ type: 'writing', messages: i, totalMessages });
      }
      await db.summaries.bulkPut(t.summaries);
      await db.passages.bulkPut(t.passages);
      await db.documents.bulkPut(t.documents);
      await db.turns.bulkPut(t.turns);
      await db.steps.bulkPut(t.steps);
      await db.settings.bulkPut(t.settings);
      await db.vectors.bulkAdd(t.vectors);
      stopIfCancelled(signal);
    });
  } catch (error) {
    throw toStorageError(error, 'import a backup');
  }
  const summary = {} as ImportSummary;
  for (const [name, rows] of Object.entries(t)) summary[name as keyof ImportSummary] = rows.length;
  const left = backup.leftOut;
  summary.leftOut = left ? left.turns + left.steps + left.vectors : 0;
  return summary;
}
