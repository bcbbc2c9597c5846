import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Table } from 'dexie';
import type { BackupFile } from '../../core/backup/backup-format';
import { openMemoryStore, type DexieMemoryStore } from '../storage/dexie';
import {
  sampleAgent,
  sampleBlock,
  sampleDocument,
  sampleMessage,
  samplePassage,
} from '../storage/dexie/sample-records';
import {
  BoundedBlobWriter,
  EXPORT_BLOB_CHARS,
  exportBackup,
  exportBackupBlob,
  readBackupTables,
  writeBackupParts,
} from './export-backup';
import { importBackup } from './import-backup';

const stores: DexieMemoryStore[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  stores.splice(0).forEach((s) => s.close());
});
let dbs = 0;
async function fresh(): Promise<DexieMemoryStore> {
  dbs += 1;
  const s = await openMemoryStore(`export-test-${dbs}-${Date.now()}`);
  stores.push(s);
  return s;
}

/** Two agents, each with more rows in several tables than one page holds. */
async function library(): Promise<DexieMemoryStore> {
  const store = await fresh();
  for (const a of ['a', 'b']) {
    const doc = sampleDocument(a, `${a}-doc`);
    await store.apply({
      agents: [sampleAgent(a)],
      blocks: [sampleBlock(a, 'human', 'Name: Ana'), sampleBlock(a, 'persona', 'kind')],
      messages: Array.from({ length: 11 }, (_, i) =>
        sampleMessage(a, `${a}-m${i}`, `message ${i} of ${a} — 汉字 "quoted"`, 1000 + i),
      ),
      documents: [doc],
      passages: Array.from({ length: 5 }, (_, i) =>
        samplePassage(a, `${a}-p${i}`, `fact ${i}`, 2000 + i, Float32Array.from([i, -1, 0.5])),
      ),
    });
    await store.putVectors(a, {
      kind: 'message',
      modelId: 'e5',
      dimension: 2,
      ids: [`${a}-m1`, `${a}-m2`],
      data: Float32Array.from([1, 2, 3, 4]),
    });
  }
  await store.setSetting('theme', { dark: true });
  return store;
}

const head = (agentId?: string): Omit<BackupFile, 'tables'> => ({
  format: 'loci-backup',
  version: 2,
  exportedAt: 9,
  scope: agentId === undefined ? { type: 'all' } : { type: 'agent', agentId },
});

describe('export in pages (ADR 0176)', () => {
  it('X193: written a few rows at a time, the file is the same JSON as the whole tables give', async () => {
    const store = await library();
    for (const agentId of [undefined, 'b']) {
      const tables = await readBackupTables(store, agentId);
      const whole = JSON.stringify({ ...head(agentId), tables });
      for (const pageRows of [1, 3, 256]) {
        const parts = await writeBackupParts(store, head(agentId), agentId, pageRows);
        expect(parts.join('')).toBe(whole);
      }
    }
    const target = await fresh();
    await importBackup(target, await exportBackup(store));
    expect(await readBackupTables(target)).toEqual(await readBackupTables(store));
  });

  it('X194: no read fetches more rows than one page, and every record is its own part', async () => {
    const store = await library();
    const biggest: number[] = [];
    // Every table of the database (transaction-bound ones too) shares Dexie's Table prototype.
    const proto = Object.getPrototypeOf(store.db.messages) as Table<unknown, unknown>;
    const bulkGet = proto.bulkGet;
    vi.spyOn(proto, 'bulkGet').mockImplementation(function (this: Table, keys: unknown[]) {
      biggest.push(keys.length);
      return bulkGet.call(this, keys);
    });
    vi.spyOn(proto, 'toArray').mockImplementation(function (this: Table) {
      throw new Error(`${this.name} was read whole`);
    });
    const parts = await writeBackupParts(store, head(), undefined, 4);
    expect(Math.max(...biggest)).toBe(4);
    // 22 messages, 10 passages, 4 blocks, … : one part per record, plus the brackets.
    const file = JSON.parse(parts.join('')) as BackupFile;
    const records = Object.values(file.tables).reduce((n, rows) => n + rows.length, 0);
    expect(file.tables.messages).toHaveLength(22);
    expect(parts.length).toBe(records + 2 * Object.keys(file.tables).length + 2);
  });
});

describe('export as a Blob (X243, X244, ADR 0192)', () => {
  it('X243: the Blob holds the same text as the parts, for everything and for one agent', async () => {
    const store = await library();
    for (const agentId of [undefined, 'b']) {
      const now = () => 9;
      const blob = await exportBackupBlob(store, { ...(agentId ? { agentId } : {}), now }, 3);
      expect(blob.type).toBe('application/json');
      expect(await blob.text()).toBe(
        await exportBackup(store, { ...(agentId ? { agentId } : {}), now }),
      );
    }
  });

  it('X243: text is held as strings only up to the limit, then sealed into a Blob piece', async () => {
    const writer = new BoundedBlobWriter(1_000);
    const parts = Array.from(
      { length: 500 },
      (_, i) => `{"n":${i},"text":"${'汉'.repeat(i % 97)}"},`,
    );
    for (const part of parts) writer.write(part);
    // At most the limit plus the part that crossed it: never the whole text (about 25,000 chars).
    expect(writer.peakChars).toBeLessThan(1_000 + Math.max(...parts.map((p) => p.length)));
    expect(await writer.finish().text()).toBe(parts.join(''));
    expect(EXPORT_BLOB_CHARS).toBeLessThanOrEqual(1 << 20);
  });

  it('X244: an encrypted export Blob, its ciphertext in several pieces, imports back equal', async () => {
    const store = await library();
    // Two messages of 900,000 characters: about 3.6 MB of ciphertext, several base64 pieces.
    await store.apply({
      messages: [1, 2].map((i) =>
        sampleMessage('a', `a-big${i}`, `${i} ${'harbour lamp '.repeat(69_230)}`, 5000 + i),
      ),
    });
    const blob = await exportBackupBlob(store, { passphrase: 'correct horse' });
    const text = await blob.text();
    expect(JSON.parse(text)).toMatchObject({ format: 'loci-backup-encrypted' });
    const target = await fresh();
    await importBackup(target, text, { passphrase: 'correct horse' });
    expect(await readBackupTables(target)).toEqual(await readBackupTables(store));
  });
});
