/**
 * Reads a backup file of any size (X171, ADR 0164): small files as one text, as before; larger
 * ones as a stream, split at the records of `tables.*` by a structural scanner (strings, escapes
 * and bracket depth only), each record parsed on its own and the small rest (the skeleton) parsed
 * with a `0` in each record's place. The assembled value is then validated exactly as a parsed
 * text is, so the same limits apply per record and nothing is written before all of it passed.
 */
import { AppError } from '../../core/errors';
import { ENCRYPTED_FORMAT, type DecodedBackup } from '../../core/backup/backup-format';
import type { DexieMemoryStore } from '../storage/dexie/dexie-memory-store';
import {
  readBackup,
  readBackupValue,
  writeBackup,
  type ImportOptions,
  type ImportSummary,
} from './import-backup';

/** Files up to this size are read as one text (fast, and what every small backup is). */
export const STREAM_ABOVE_BYTES = 64 * 1024 * 1024;
/** Most characters of the skeleton (everything outside the records). */
const MAX_SKELETON_CHARS = 16 * 1024 * 1024;

const invalid = (message: string, path = '$'): AppError =>
  new AppError('backup_invalid', `Invalid backup: ${message}`, { path });

interface Row {
  table: string;
  index: number;
  text: string;
}

/** Splits the JSON text of `stream` into its skeleton and the records of `tables.*`. */
async function scan(stream: ReadableStream<string>): Promise<{ skeleton: string; rows: Row[] }> {
  const rows: Row[] = [];
  const skeleton: string[] = [];
  let skeletonChars = 0;
  const keep = (text: string): void => {
    skeletonChars += text.length;
    if (skeletonChars > MAX_SKELETON_CHARS)
      throw invalid('outside its records the file holds more than a backup has.');
    skeleton.push(text);
  };
  let depth = 0;
  let inString = false;
  let escaped = false;
  // The last string closed at depth 1 and 2 (a key, when a ':' follows), as its raw text.
  let stringStart = -1;
  let stringText: string[] = [];
  const lastKey: Array<string | null> = [null, null, null];
  let inTables = false;
  let tablesSeen = 0;
  const tableNames = new Set<string>();
  let table: string | null = null;
  let index = 0;
  let capture: string[] | null = null;
  const reader = stream.getReader();
  for (;;) {
    const { done, value: chunk } = await reader.read();
    if (done) break;
    let from = 0; // start of the part of `chunk` not yet kept or captured
    for (let i = 0; i < chunk.length; i += 1) {
      const c = chunk.charCodeAt(i);
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 92) escaped = true;
        else if (c === 34) {
          inString = false;
          if (capture === null && stringStart >= 0) {
            stringText.push(chunk.slice(stringStart, i + 1));
            const raw = stringText.join('');
            stringStart = -1;
            stringText = [];
            if (depth <= 2) {
              try {
                lastKey[depth] = JSON.parse(raw) as string;
              } catch {
                throw invalid('the file is not JSON (a malformed string).');
              }
            }
          }
        }
        continue;
      }
      if (c === 34) {
        inString = true;
        if (capture === null && depth <= 2) {
          stringStart = i;
          stringText = [];
        }
      } else if (c === 123 || c === 91) {
        // { or [
        if (capture === null && inTables && depth === 3 && table !== null && c === 123) {
          keep(chunk.slice(from, i) + '0');
          capture = [];
          from = i;
        }
        depth += 1;
        if (capture === null && depth === 2 && c === 123 && lastKey[1] === 'tables') {
          inTables = true;
          tablesSeen += 1;
          if (tablesSeen > 1) throw invalid('"tables" appears twice.', 'tables');
        }
        if (capture === null && inTables && depth === 3 && c === 91) {
          table = lastKey[2] ?? null;
          if (table === null || tableNames.has(table))
            throw invalid(`the table ${String(table)} appears twice.`, `tables.${table}`);
          tableNames.add(table);
          index = 0;
        }
      } else if (c === 125 || c === 93) {
        // } or ]
        depth -= 1;
        if (depth < 0) throw invalid('the file is not JSON (a bracket closes nothing).');
        if (capture !== null && depth === 3) {
          capture.push(chunk.slice(from, i + 1));
          rows.push({ table: table!, index, text: capture.join('') });
          capture = null;
          from = i + 1;
        } else if (capture === null) {
          if (depth === 2 && inTables) table = null;
          if (depth === 1) inTables = false;
        }
      } else if (c === 44 && capture === null && inTables && depth === 3) {
        index += 1;
      } else if (c === 58 && capture === null && depth <= 2) {
        // ':' after a key: nothing to do, the key is already recorded.
      }
    }
    if (inString && stringStart >= 0 && capture === null) {
      stringText.push(chunk.slice(stringStart));
      stringStart = 0;
    }
    if (capture !== null) capture.push(chunk.slice(from));
    else keep(chunk.slice(from));
  }
  if (depth !== 0 || inString || capture !== null)
    throw invalid('the file is not JSON (it ends in the middle; is it truncated?).');
  return { skeleton: skeleton.join(''), rows };
}

/** Parses, decrypts when needed and validates a backup file of any size; writes nothing. */
export async function readBackupBlob(
  blob: Blob,
  options: ImportOptions = {},
  streamAbove: number = STREAM_ABOVE_BYTES,
): Promise<DecodedBackup> {
  if (blob.size <= streamAbove) return readBackup(await blob.text(), options);
  const { onProgress } = options;
  let loadedBytes = 0;
  const counted: ReadableStream<Uint8Array<ArrayBuffer>> = onProgress
    ? blob.stream().pipeThrough(
        new TransformStream<Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>>({
          transform(chunk, controller) {
            loadedBytes += chunk.byteLength;
            onProgress({ type: 'reading', loadedBytes, totalBytes: blob.size });
            controller.enqueue(chunk);
          },
        }),
      )
    : blob.stream();
  const { skeleton, rows } = await scan(counted.pipeThrough(new TextDecoderStream()));
  onProgress?.({ type: 'checking' });
  let value: unknown;
  try {
    value = JSON.parse(skeleton);
  } catch (error) {
    throw invalid(
      `the file is not JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if ((value as { format?: unknown } | null)?.format === ENCRYPTED_FORMAT) {
    throw new AppError(
      'backup_invalid',
      'This encrypted backup is larger than this app can decrypt at once; export it again without a passphrase.',
      { path: '$' },
    );
  }
  const tables = (value as { tables?: Record<string, unknown[]> } | null)?.tables;
  for (const row of rows) {
    const path = `tables.${row.table}[${row.index}]`;
    const list = tables?.[row.table];
    if (!Array.isArray(list) || list[row.index] !== 0) throw invalid('is malformed.', path);
    try {
      list[row.index] = JSON.parse(row.text);
    } catch {
      throw invalid(`${path} is not JSON.`, path);
    }
  }
  return readBackupValue(value);
}

/** Imports a backup file of any size: validates all of it, then writes it in one transaction. */
export async function importBackupFile(
  store: DexieMemoryStore,
  file: Blob,
  options: ImportOptions = {},
  streamAbove?: number,
): Promise<ImportSummary> {
  return writeBackup(store, await readBackupBlob(file, options, streamAbove), options);
}
