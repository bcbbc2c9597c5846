/**
 * The page script of the Chromium ingest benchmark (bundled by bench/sections/storage.ts):
 * writes synthetic messages and passages into real IndexedDB through the Dexie store and times
 * it, batched (one change set per batch) and one row per transaction (the naive baseline). It also
 * times the same rows written with raw IndexedDB `add` calls into a database with the store's own
 * schema (Dexie and the store bypassed): the ceiling of this browser with these indexes.
 */
import { LociDb, openMemoryStore } from '../../src/adapters/storage/dexie';
import type { NewMessage } from '../../src/core/ports/memory-store';
import type { Passage } from '../../src/core/model';
import { sampleAgent } from '../../src/adapters/storage/dexie/sample-records';
import { clusteredVectors, textGenerator } from '../lib/synthetic';

const DIM = 384;
let dbCounter = 0;

async function freshStore() {
  dbCounter += 1;
  const store = await openMemoryStore(`bench-${Date.now()}-${dbCounter}`);
  await store.apply({ agents: [sampleAgent('bench')] });
  return store;
}

function messages(n: number, seed: number): NewMessage[] {
  const gen = textGenerator(seed);
  return Array.from({ length: n }, (_, i) => ({
    id: `m${seed}-${i}`,
    agentId: 'bench',
    role: i % 2 ? 'assistant' : 'user',
    text: gen.sentence(),
    at: 1_700_000_000_000 + i * 1000,
    inContext: false,
    tokens: 20,
  }));
}

function passages(n: number, seed: number): Passage[] {
  const gen = textGenerator(seed);
  const vectors = clusteredVectors(n, DIM, seed, Math.max(10, Math.round(n / 100)));
  return Array.from({ length: n }, (_, i) => ({
    id: `p${seed}-${i}`,
    agentId: 'bench',
    text: `${gen.sentence()} ${gen.sentence()} ${gen.sentence()}`,
    source: { type: 'document', documentId: 'doc', chunk: i, start: 0, end: 300 },
    tags: [],
    at: 1_700_000_000_000 + i,
    embedding: vectors.slice(i * DIM, (i + 1) * DIM),
    embeddingModel: 'bench-384',
    dimension: DIM,
  }));
}

/** Rows per second of writing `rows` in change sets of `batch` rows. */
async function timed<T>(
  rows: T[],
  batch: number,
  write: (chunk: T[]) => Promise<unknown>,
): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < rows.length; i += batch) await write(rows.slice(i, i + batch));
  return rows.length / ((performance.now() - t0) / 1000);
}

/** Writes `rows` into `table` of a fresh Loci-schema database with raw IndexedDB, `batch` a transaction. */
async function rawIdbRowsPerS(table: string, rows: object[], batch: number): Promise<number> {
  dbCounter += 1;
  const db = new LociDb(`bench-raw-${Date.now()}-${dbCounter}`);
  await db.open();
  const idb = db.backendDB();
  try {
    return await timed(
      rows,
      batch,
      (chunk) =>
        new Promise<void>((resolve, reject) => {
          const tx = idb.transaction(table, 'readwrite');
          const store = tx.objectStore(table);
          for (const row of chunk) store.add(row);
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error ?? new Error('transaction failed'));
          tx.onabort = () => reject(tx.error ?? new Error('transaction aborted'));
        }),
    );
  } finally {
    db.close();
  }
}

const api = {
  async ingestMessages(n: number, batch: number): Promise<{ rowsPerS: number; count: number }> {
    const store = await freshStore();
    const rows = messages(n, 1);
    const rowsPerS = await timed(rows, batch, (chunk) => store.apply({ messages: chunk }));
    const count = await store.countMessages('bench');
    store.close();
    return { rowsPerS, count };
  },
  async ingestPassages(n: number, batch: number): Promise<{ rowsPerS: number; count: number }> {
    const store = await freshStore();
    const rows = passages(n, 2);
    const rowsPerS = await timed(rows, batch, (chunk) => store.apply({ passages: chunk }));
    const count = await store.countPassages('bench');
    store.close();
    return { rowsPerS, count };
  },
  /** The IndexedDB ceiling: the same rows as stored rows (seq and ctx set), raw `add`s. */
  async ingestMessagesRaw(n: number, batch: number): Promise<{ rowsPerS: number }> {
    const rows = messages(n, 1).map((m, i) => ({ ...m, seq: i + 1, ctx: 0 }));
    return { rowsPerS: await rawIdbRowsPerS('messages', rows, batch) };
  },
  async ingestPassagesRaw(n: number, batch: number): Promise<{ rowsPerS: number }> {
    return { rowsPerS: await rawIdbRowsPerS('passages', passages(n, 2), batch) };
  },
  /** Loading n 384-d vectors: one passage row each vs packed `vectors` rows of 2,000. */
  async loadVectors(n: number): Promise<{ perRowMs: number; packedMs: number }> {
    const store = await freshStore();
    const rows = passages(n, 3);
    for (let i = 0; i < rows.length; i += 1000)
      await store.apply({ passages: rows.slice(i, i + 1000) });
    for (let i = 0; i < rows.length; i += 2000) {
      const chunk = rows.slice(i, i + 2000);
      const data = new Float32Array(chunk.length * DIM);
      chunk.forEach((p, j) => data.set(p.embedding!, j * DIM));
      await store.putVectors('bench', {
        kind: 'passage',
        modelId: 'bench-384',
        dimension: DIM,
        ids: chunk.map((p) => p.id),
        data,
      });
    }
    let t0 = performance.now();
    const loaded = await store.queryPassages('bench');
    const perRowMs = performance.now() - t0;
    t0 = performance.now();
    const packed = await store.loadVectors('bench', 'bench-384');
    const packedMs = performance.now() - t0;
    if (loaded.length !== n || packed.reduce((s, b) => s + b.ids.length, 0) !== n)
      throw new Error('vector load count mismatch');
    store.close();
    return { perRowMs, packedMs };
  },
};

(globalThis as unknown as { __bench: typeof api }).__bench = api;
document.title = 'bench ready';
