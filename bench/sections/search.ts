/**
 * Search benchmarks (Node): lexical BM25+ at 10k / 100k messages against a naive full-scan
 * substring search and today's MiniSearch index, and vector top-10 at 10k / 100k × 384 (exact, and the compressed path
 * `auto` picks at that size) against a naive array-of-arrays + full sort, plus 10⁶ × 384
 * compressed with recall@10 against the exact scan (skipped with --quick).
 */
import { Bm25LexicalIndex } from '../../src/adapters/search/bm25-lexical-index';
import { MiniSearchLexicalIndex } from '../../src/testing/minisearch-lexical-index';
import { LEXICAL_DEPTH } from '../../src/core/search/memory-search';
import type { LexicalDoc } from '../../src/core/ports/lexical-index';
import type { VectorEntry } from '../../src/core/ports/vector-index';
import { VectorMatrix } from '../../src/core/search/vector-matrix';
import { latency, rateFigure, timeFigure } from '../lib/measure';
import { mulberry32 } from '../lib/prng';
import { clusteredVectors, queriesNear, textGenerator } from '../lib/synthetic';
import type { BenchFigure, BenchOptions, BenchSection } from '../types';

const DIM = 384;
const K = 10;
const label = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}m` : `${n / 1000}k`);

/** `count` distinct queries (the index caches repeated ones, so repeats would flatter it). */
function lexicalQueries(count: number, seed: number): string[] {
  const gen = textGenerator(42, 3000, seed);
  const random = mulberry32(seed + 1);
  const chinese = ['生日', '咖啡', '朋友', '旅行', '上海', '电影', '工作', '公园', '喜欢', '北京'];
  const pick = () => chinese[Math.floor(random() * chinese.length)]!;
  const out = new Set<string>();
  while (out.size < count) {
    out.add(out.size % 10 === 9 ? `${pick()}${pick()}` : `${gen.word()} ${gen.word()}`);
  }
  return [...out];
}

function naiveSubstring(lowered: readonly string[], query: string): number {
  const terms = query.toLowerCase().split(/\s+/).filter(Boolean);
  const hits: Array<{ i: number; s: number }> = [];
  for (let i = 0; i < lowered.length; i += 1) {
    let s = 0;
    for (const t of terms) if (lowered[i]!.includes(t)) s += 1;
    if (s > 0) hits.push({ i, s });
  }
  hits.sort((a, b) => b.s - a.s);
  return hits.length;
}

function lexical(n: number, quick: boolean): BenchFigure[] {
  const gen = textGenerator(42);
  const docs: LexicalDoc[] = Array.from({ length: n }, (_, i) => ({
    id: `m${i}`,
    kind: 'message',
    text: gen.sentence(),
    at: 1_700_000_000_000 + i * 60_000,
    tag: i % 2 ? 'assistant' : 'user',
  }));
  const index = new Bm25LexicalIndex();
  const t0 = performance.now();
  for (let i = 0; i < n; i += 1000) index.add(docs.slice(i, i + 1000));
  const buildMs = performance.now() - t0;
  const today = new MiniSearchLexicalIndex();
  const t1 = performance.now();
  for (let i = 0; i < n; i += 1000) today.add(docs.slice(i, i + 1000));
  const todayBuildMs = performance.now() - t1;
  const queries = lexicalQueries(210, 7);
  let totalHits = 0;
  let calls = 0;
  // What the search module asks (ADR 0101): the best LEXICAL_DEPTH hits and the total.
  const ours = latency(
    (i) => {
      calls += 1;
      totalHits += index.searchPage({ text: queries[i % queries.length]!, k: LEXICAL_DEPTH }).total;
    },
    quick ? 60 : 200,
  );
  // Today's index until ADR 0101: MiniSearch, every hit scored, built and sorted (for page totals).
  const minisearch = latency(
    (i) => today.search({ text: queries[i % queries.length]!, k: Number.MAX_SAFE_INTEGER }),
    quick ? 30 : 100,
  );
  const lowered = docs.map((d) => d.text.toLowerCase());
  const naive = latency(
    (i) => naiveSubstring(lowered, queries[i % queries.length]!),
    quick ? 10 : 30,
    2,
  );
  const id = `search.lexical.${label(n)}`;
  const notes = `mean matches per query ${Math.round(totalHits / calls)}`;
  return [
    timeFigure(
      `${id}.p50_ms`,
      `lexical BM25+ p50, ${n} messages, best ${LEXICAL_DEPTH} + total`,
      ours.p50,
      {
        label: 'full-scan substring p50',
        value: naive.p50,
      },
    ),
    timeFigure(
      `${id}.p95_ms`,
      `lexical BM25+ p95, ${n} messages, best ${LEXICAL_DEPTH} + total`,
      ours.p95,
      { label: 'full-scan substring p95', value: naive.p95 },
      { target: n >= 100_000 ? '≥ 3× the full scan' : undefined, notes },
    ),
    timeFigure(
      `${id}.vs_minisearch.p95_ms`,
      `lexical BM25+ p95, ${n} messages, against today's MiniSearch index (all hits)`,
      ours.p95,
      { label: 'MiniSearch, all hits, p95', value: minisearch.p95 },
      { notes },
    ),
    rateFigure(
      `${id}.index_rows_per_s`,
      `lexical index build, ${n} messages (batches of 1000)`,
      'rows/s',
      n / (buildMs / 1000),
      { label: 'MiniSearch build', value: n / (todayBuildMs / 1000) },
    ),
  ];
}

function entriesOf(data: Float32Array, n: number): VectorEntry[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `v${i}`,
    kind: i % 4 === 0 ? 'passage' : 'message',
    vector: data.subarray(i * DIM, (i + 1) * DIM),
  }));
}

function naiveTopK(rows: number[][], q: Float32Array): string[] {
  const qa = Array.from(q);
  const qn = Math.sqrt(qa.reduce((s, x) => s + x * x, 0));
  return rows
    .map((r, i) => {
      let dot = 0;
      let rn = 0;
      for (let j = 0; j < r.length; j += 1) {
        dot += r[j]! * qa[j]!;
        rn += r[j]! * r[j]!;
      }
      return { i, s: dot / (Math.sqrt(rn) * qn) };
    })
    .sort((a, b) => b.s - a.s)
    .slice(0, K)
    .map((h) => `v${h.i}`);
}

function recallAt10(m: VectorMatrix, queries: Float32Array[], exact: string[][]): number {
  let found = 0;
  queries.forEach((q, i) => {
    const truth = new Set(exact[i]);
    for (const h of m.search(q, { k: K, mode: 'compressed' })) if (truth.has(h.id)) found += 1;
  });
  return found / (queries.length * K);
}

function vectors(n: number, quick: boolean): BenchFigure[] {
  const data = clusteredVectors(n, DIM, 1234, Math.max(10, Math.round(n / 100)));
  const m = new VectorMatrix(DIM);
  m.add(entriesOf(data, n));
  const queries = queriesNear(data, DIM, 100, 99);
  const runs = quick ? 30 : 100;
  const exact = latency(
    (i) => m.search(queries[i % queries.length]!, { k: K, mode: 'exact' }),
    runs,
  );
  const rows: number[][] = Array.from({ length: n }, (_, i) =>
    Array.from(data.subarray(i * DIM, (i + 1) * DIM)),
  );
  const naive = latency((i) => naiveTopK(rows, queries[i % queries.length]!), quick ? 5 : 15, 1);
  const truth = queries.map((q) => m.search(q, { k: K, mode: 'exact' }).map((h) => h.id));
  const naiveAgrees = queries
    .slice(0, 3)
    .every((q, i) => naiveTopK(rows, q).join() === truth[i]!.join());
  const compressed = latency(
    (i) => m.search(queries[i % queries.length]!, { k: K, mode: 'compressed' }),
    runs,
  );
  const recall = recallAt10(m, queries, truth);
  const auto = n >= 50_000 ? 'compressed' : 'exact';
  const id = `search.vector.${label(n)}`;
  const naiveLabel = 'naive number[][] + full sort';
  return [
    timeFigure(`${id}.exact.p50_ms`, `vector exact top-10 p50, ${n} × ${DIM}`, exact.p50, {
      label: `${naiveLabel} p50`,
      value: naive.p50,
    }),
    timeFigure(
      `${id}.exact.p95_ms`,
      `vector exact top-10 p95, ${n} × ${DIM}`,
      exact.p95,
      { label: `${naiveLabel} p95`, value: naive.p95 },
      {
        notes: naiveAgrees
          ? 'naive and exact agree on the top-10'
          : 'WARNING: naive and exact disagree',
      },
    ),
    timeFigure(
      `${id}.compressed.p50_ms`,
      `vector 1-bit scan + re-rank p50, ${n} × ${DIM}`,
      compressed.p50,
      { label: 'exact p50', value: exact.p50 },
    ),
    timeFigure(
      `${id}.compressed.p95_ms`,
      `vector 1-bit scan + re-rank p95, ${n} × ${DIM}`,
      compressed.p95,
      { label: 'exact p95', value: exact.p95 },
      {
        target: n === 100_000 ? '≤ 10 ms' : undefined,
        notes: `mode 'auto' uses ${auto} at this size`,
      },
    ),
    {
      id: `${id}.compressed.recall_at_10`,
      label: `recall@10 of compressed vs exact, ${n} × ${DIM}`,
      unit: 'recall',
      value: Math.round(recall * 1000) / 1000,
      target: n === 100_000 ? '≥ 0.95' : undefined,
    },
  ];
}

/** Recall on weakly clustered data (noise 2× the centre scale): the hard case for sign codes. */
function weakClusterRecall(n: number): BenchFigure {
  const data = clusteredVectors(n, DIM, 555, Math.round(n / 100), 2);
  const m = new VectorMatrix(DIM);
  m.add(entriesOf(data, n));
  const queries = queriesNear(data, DIM, 50, 66, 1);
  const truth = queries.map((q) => m.search(q, { k: K, mode: 'exact' }).map((h) => h.id));
  return {
    id: `search.vector.${label(n)}.compressed.recall_at_10_weak_clusters`,
    label: `recall@10 of compressed vs exact, ${n} × ${DIM}, weak clusters`,
    unit: 'recall',
    value: Math.round(recallAt10(m, queries, truth) * 1000) / 1000,
    notes: 'noise 2× the cluster scale; queries = a row + noise 1',
  };
}

function millionCompressed(): BenchFigure[] {
  const n = 1_000_000;
  const data = clusteredVectors(n, DIM, 4321, 10_000);
  const m = new VectorMatrix(DIM);
  m.add(entriesOf(data, n));
  const queries = queriesNear(data, DIM, 30, 77);
  const exactTimes: number[] = [];
  const truth = queries.map((q) => {
    const t0 = performance.now();
    const ids = m.search(q, { k: K, mode: 'exact' }).map((h) => h.id);
    exactTimes.push(performance.now() - t0);
    return ids;
  });
  exactTimes.sort((a, b) => a - b);
  const exactP50 = exactTimes[Math.floor(exactTimes.length / 2)]!;
  const exactP95 = exactTimes[Math.floor(exactTimes.length * 0.95)]!;
  const compressed = latency(
    (i) => m.search(queries[i % queries.length]!, { k: K, mode: 'compressed' }),
    60,
  );
  const recall = recallAt10(m, queries, truth);
  return [
    timeFigure(
      'search.vector.1m.compressed.p50_ms',
      'vector 1-bit scan + re-rank p50, 10⁶ × 384',
      compressed.p50,
      { label: 'exact scan p50', value: exactP50 },
    ),
    timeFigure(
      'search.vector.1m.compressed.p95_ms',
      'vector 1-bit scan + re-rank p95, 10⁶ × 384',
      compressed.p95,
      { label: 'exact scan p95', value: exactP95 },
    ),
    {
      id: 'search.vector.1m.compressed.recall_at_10',
      label: 'recall@10 of compressed vs exact, 10⁶ × 384',
      unit: 'recall',
      value: Math.round(recall * 1000) / 1000,
    },
    {
      id: 'search.vector.1m.memory_mb',
      label: 'matrix + codes memory, 10⁶ × 384',
      unit: 'MB',
      value: Math.round((n * DIM * 4 + n * (DIM / 8)) / 2 ** 20),
    },
  ];
}

export const run: BenchSection = async (options: BenchOptions) => {
  const sizes = options.quick ? [10_000] : [10_000, 100_000];
  const figures: BenchFigure[] = [];
  for (const n of sizes) figures.push(...lexical(n, options.quick));
  for (const n of [10_000, 100_000]) figures.push(...vectors(n, options.quick));
  figures.push(weakClusterRecall(100_000));
  if (!options.quick) figures.push(...millionCompressed());
  return figures;
};
