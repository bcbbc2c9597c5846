/**
 * Storage benchmarks in real Chromium IndexedDB (Debian's /usr/bin/chromium driven by
 * Playwright): ingest rows/s of 100k messages and 20k passages with 384-d embeddings, written
 * in change sets of 5,000 / 1,000 rows, against one row per transaction; and loading 20k vectors
 * from packed rows against one passage row per vector.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { rateFigure, timeFigure } from '../lib/measure';
import { serveBundle } from '../browser/serve-bundle';
import type { BenchFigure, BenchSection } from '../types';

const here = path.dirname(fileURLToPath(import.meta.url));

interface BenchApi {
  ingestMessages(n: number, batch: number): Promise<{ rowsPerS: number; count: number }>;
  ingestPassages(n: number, batch: number): Promise<{ rowsPerS: number; count: number }>;
  ingestMessagesRaw(n: number, batch: number): Promise<{ rowsPerS: number }>;
  ingestPassagesRaw(n: number, batch: number): Promise<{ rowsPerS: number }>;
  loadVectors(n: number): Promise<{ perRowMs: number; packedMs: number }>;
}
type Call = <K extends keyof BenchApi>(
  name: K,
  ...args: Parameters<BenchApi[K]>
) => ReturnType<BenchApi[K]>;

export const run: BenchSection = async ({ quick }) => {
  const served = await serveBundle(path.join(here, '../browser/ingest-entry.ts'));
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
    ],
  });
  try {
    const page = await browser.newPage();
    page.setDefaultTimeout(600_000);
    await page.goto(served.url);
    await page.waitForFunction(() => document.title === 'bench ready');
    const call = ((name: keyof BenchApi, ...args: number[]) =>
      page.evaluate(
        ([n, a]) =>
          (globalThis as unknown as { __bench: Record<string, (...x: number[]) => unknown> })
            .__bench[n as string]!(...(a as number[])),
        [name, args] as const,
      )) as unknown as Call;

    const messages = quick ? 10_000 : 100_000;
    const passages = quick ? 2_000 : 20_000;
    const m = await call('ingestMessages', messages, 5000);
    const mBase = await call('ingestMessages', quick ? 500 : 2000, 1);
    const p = await call('ingestPassages', passages, 1000);
    const pBase = await call('ingestPassages', quick ? 200 : 1000, 1);
    const mRaw = await call('ingestMessagesRaw', messages, 5000);
    const pRaw = await call('ingestPassagesRaw', passages, 1000);
    const v = await call('loadVectors', passages);
    if (m.count !== messages || p.count !== passages) throw new Error('ingest row count mismatch');
    const figures: BenchFigure[] = [
      rateFigure(
        `storage.ingest.messages.${messages / 1000}k.rows_per_s`,
        `ingest ${messages} messages, change sets of 5000 (Chromium IDB)`,
        'rows/s',
        m.rowsPerS,
        { label: 'one message per transaction', value: mBase.rowsPerS },
        { target: '≥ 20000 rows/s' },
      ),
      rateFigure(
        `storage.ingest.passages.${passages / 1000}k.rows_per_s`,
        `ingest ${passages} passages + 384-d embeddings, change sets of 1000 (Chromium IDB)`,
        'rows/s',
        p.rowsPerS,
        { label: 'one passage per transaction', value: pBase.rowsPerS },
        { target: '≥ 20000 rows/s' },
      ),
      // The ceiling: how much of the browser's own IndexedDB speed the store keeps (ratio ≈ 1).
      rateFigure(
        `storage.ingest.messages.${messages / 1000}k.vs_raw_idb`,
        `ingest ${messages} messages through the store vs raw IndexedDB adds, same schema`,
        'rows/s',
        m.rowsPerS,
        { label: 'raw IndexedDB add, same schema and batches', value: mRaw.rowsPerS },
      ),
      rateFigure(
        `storage.ingest.passages.${passages / 1000}k.vs_raw_idb`,
        `ingest ${passages} passages through the store vs raw IndexedDB adds, same schema`,
        'rows/s',
        p.rowsPerS,
        { label: 'raw IndexedDB add, same schema and batches', value: pRaw.rowsPerS },
      ),
      timeFigure(
        `storage.load_vectors.${passages / 1000}k.packed_ms`,
        `load ${passages} × 384 vectors from packed rows of 2000 (Chromium IDB)`,
        v.packedMs,
        { label: 'one passage row per vector', value: v.perRowMs },
      ),
    ];
    return figures;
  } finally {
    await browser.close();
    await served.close();
  }
};
