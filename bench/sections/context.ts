/**
 * Context assembly (issues 5 and 14): p50/p95 of planning one turn — automatic recall's two
 * queries (A11: the trigger, and the trigger with the latest reply; hybrid search over recall +
 * archival: BM25+ over every message, a 384-d vector per message in the vector matrix, recency)
 * plus `planContext` over the in-context queue, counted with the real
 * Llama 3 tokenizer and a cold per-turn token cache — with 10k and 100k messages in recall (1k and
 * 10k with `--quick`). Baselines in the same run: today's code before issue 14 (the MiniSearch
 * index scoring and sorting every hit, the library's BPE on every count) planning the same turns,
 * and the naive assembly that re-tokenizes the whole history every turn and keeps the newest
 * messages that fit (what a chat without a queue manager does). Reading the queue from IndexedDB
 * (an indexed `inContext` query) is outside every timing.
 *
 * The headline figure runs the app's layout (C24, ADR 0178): the query embedding and the vector
 * matrix in a worker thread behind the app's own `WorkerEmbedder`, `WorkerVectorIndex`, RPC and
 * embed-worker handlers, BM25 and planning on the calling thread; `one_thread` is the same code
 * with the matrix in process, every part in turn. Today's code runs on one thread as it did.
 */
import { LocalVectorIndex } from '../../src/adapters/search/local-vector-index';
import { Bm25LexicalIndex } from '../../src/adapters/search/bm25-lexical-index';
import { MiniSearchLexicalIndex } from '../../src/testing/minisearch-lexical-index';
import llama3Tokenizer from 'llama3-tokenizer-js';
import { MESSAGE_OVERHEAD } from '../../src/adapters/tokenizer/chat-template-overhead';
import { createLlama3Tokenizer } from '../../src/adapters/tokenizer/llama3-tokenizer';
import { autoRecall } from '../../src/core/agent/auto-recall';
import { createAgentRecord } from '../../src/core/agent/create-agent-record';
import { createMemgptStrategy } from '../../src/core/strategies/memgpt';
import { planContext } from '../../src/core/context/plan-context';
import type { Embedder } from '../../src/core/ports/embedder';
import type { LexicalIndex } from '../../src/core/ports/lexical-index';
import type { NewMessage } from '../../src/core/ports/memory-store';
import type { Tokenizer } from '../../src/core/ports/tokenizer';
import type { VectorIndex } from '../../src/core/ports/vector-index';
import { renderMessage } from '../../src/core/prompts/render-context';
import { createMemorySearch } from '../../src/core/search/memory-search';
import { createToolRegistry } from '../../src/core/tools/tool-registry';
import { InMemoryStore } from '../../src/testing/in-memory-store';
import { timeFigure } from '../lib/measure';
import { textGenerator } from '../lib/synthetic';
import type { BenchFigure, BenchSection } from '../types';
import { hashEmbedder } from '../lib/hash-embedder';
import { threadedEmbedder } from '../lib/threaded-embedder';

const DIM = 384;
const QUEUE = 40;
const WINDOW = 4096;

async function percentiles(fn: (i: number) => Promise<unknown>, runs: number, warmup: number) {
  for (let i = 0; i < warmup; i += 1) await fn(i);
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const t0 = performance.now();
    await fn(i);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  return { p50: at(0.5), p95: at(0.95) };
}

/** Today's tokenizer before ADR 0101: the library's BPE of the whole text on every count. */
function libraryTokenizer(): Tokenizer {
  const count = (text: string) =>
    text === '' ? 0 : llama3Tokenizer.encode(text, { bos: false, eos: false }).length;
  return {
    name: 'llama3 (library, no memo)',
    exact: true,
    count,
    countMessage: (_role, content) => count(content) + MESSAGE_OVERHEAD.llama3,
  };
}

/**
 * p50/p95 of each function, timed in turns (a, b, a, b, …) on the same inputs; warm-up calls
 * get inputs `runs`… so they are never timed again.
 */
async function interleaved(
  fns: readonly ((i: number) => Promise<unknown>)[],
  runs: number,
  warmup: number,
): Promise<{ p50: number; p95: number }[]> {
  for (let i = 0; i < warmup; i += 1) for (const fn of fns) await fn(runs + i);
  const times = fns.map((): number[] => []);
  for (let i = 0; i < runs; i += 1) {
    for (const [f, fn] of fns.entries()) {
      const t0 = performance.now();
      await fn(i);
      times[f]!.push(performance.now() - t0);
    }
  }
  return times.map((list) => {
    list.sort((a, b) => a - b);
    const at = (q: number) => list[Math.min(list.length - 1, Math.floor(q * list.length))] ?? 0;
    return { p50: at(0.5), p95: at(0.95) };
  });
}

async function scenario(n: number, quick: boolean): Promise<BenchFigure[]> {
  const text = textGenerator(n);
  const { agent, changes } = createAgentRecord({
    id: 'bench',
    name: 'Loci',
    now: 0,
    window: WINDOW,
  });
  const store = new InMemoryStore();
  const messages = Array.from({ length: n }, (_, i): NewMessage => {
    const words = text.sentence();
    return {
      id: `m${i}`,
      agentId: agent.id,
      role: i % 2 === 0 ? 'user' : 'assistant',
      text: words,
      at: Date.UTC(2025, 0, 1) + i * 60_000,
      inContext: i >= n - QUEUE,
      tokens: 0,
      // A reply is a `send_message` call, as the live loop stores it: so replies are indexed
      // (R19) and automatic recall runs its second query with the latest reply (A11).
      ...(i % 2 === 0 ? {} : { toolCall: { name: 'send_message', arguments: { message: words } } }),
    };
  });
  await store.apply({ ...changes, messages });
  const embedder = hashEmbedder(DIM, 'bench-hash', 3);
  // Every message has its vector, as the app loads them from the vector store.
  const vectors = await embedder.embedPassages(messages.map((m) => m.text));
  const stack = async (
    lexical: LexicalIndex,
    semantic: { embedder: Embedder; vectors: VectorIndex } = {
      embedder,
      vectors: new LocalVectorIndex(DIM),
    },
  ) => {
    const search = createMemorySearch({
      store,
      lexical,
      vectors: semantic.vectors,
      embedder: semantic.embedder,
      clock: { now: () => Date.UTC(2026, 0, 1) },
    });
    await search.loadAgent(agent.id);
    for (let from = 0; from < messages.length; from += 10_000)
      await semantic.vectors.add(
        messages
          .slice(from, from + 10_000)
          .map((m, i) => ({ id: m.id, kind: 'message', vector: vectors[from + i]! })),
      );
    return search;
  };
  const all = await store.queryMessages(agent.id);
  const queue = all.slice(-QUEUE);
  const blocks = await store.listBlocks(agent.id);
  const tools = createToolRegistry().specs(blocks);
  const strategy = createMemgptStrategy();
  const runs = quick ? 20 : 60;
  const warmup = 3;
  // The same turns for every stack (a warm-up turn is never timed again: the index caches).
  const queries = Array.from(
    { length: runs + warmup },
    (_, i) => `${text.word()} ${text.word()} ${text.word()} ${i}`,
  );

  interface Stack {
    search: Awaited<ReturnType<typeof stack>>;
    tokenizer: Tokenizer;
    close?: () => Promise<void>;
  }
  const planTurn = (stackOf: Stack, planTimes?: number[]) => async (i: number) => {
    const query = queries[i]!;
    const candidates = await autoRecall({ agent, search: stackOf.search, query, queue });
    const t0 = performance.now();
    const plan = await planContext({
      agent,
      blocks,
      history: queue,
      candidates,
      tools,
      strategy,
      tokenizer: stackOf.tokenizer,
      window: WINDOW,
      query,
      now: 0,
    });
    planTimes?.push(performance.now() - t0);
    if (!plan.ok) throw new Error(plan.error.type);
  };
  /**
   * One stack at a time, built, timed and dropped: as in the app, only one search index is in
   * the heap, and no stack's garbage is collected in another's timed turns (ADR 0178). Timed on
   * an idle machine; on a shared one, read the figures beside a rerun.
   */
  const phase = async (make: () => Promise<Stack>, planTimes?: number[]) => {
    const built = await make();
    const [times = { p50: 0, p95: 0 }] = await interleaved(
      [planTurn(built, planTimes)],
      runs,
      warmup,
    );
    await built.close?.();
    return times;
  };
  const planTimes: number[] = [];
  // The app's layout (C24): the query embedding and the vector matrix in the embed worker.
  const mine = await phase(async () => {
    const worker = await threadedEmbedder(DIM, 'bench-hash');
    return {
      search: await stack(new Bm25LexicalIndex(), worker),
      tokenizer: createLlama3Tokenizer(),
      close: worker.close,
    };
  }, planTimes);
  // The same code on one thread, every part in turn (the figure before C24).
  const serial = await phase(async () => ({
    search: await stack(new Bm25LexicalIndex()),
    tokenizer: createLlama3Tokenizer(),
  }));
  const before = await phase(async () => ({
    search: await stack(new MiniSearchLexicalIndex()),
    tokenizer: libraryTokenizer(),
  }));
  const planOnly = planTimes.slice(warmup).sort((a, b) => a - b);
  const planAt = (q: number) =>
    planOnly[Math.min(planOnly.length - 1, Math.floor(q * planOnly.length))] ?? 0;
  // Naive: every turn re-renders and re-tokenizes the whole history, then keeps the newest that fit.
  const naiveTokenizer = libraryTokenizer();
  const naive = await percentiles(
    async () => {
      const costs = all.map((m) => {
        const turn = renderMessage(m);
        return naiveTokenizer.countMessage(turn.role, turn.content);
      });
      let used = 0;
      let keep = 0;
      for (let i = costs.length - 1; i >= 0 && used + (costs[i] ?? 0) <= WINDOW / 2; i -= 1) {
        used += costs[i] ?? 0;
        keep += 1;
      }
      return keep;
    },
    n >= 100_000 ? 5 : quick ? 5 : 15,
    1,
  );
  const size = n >= 1000 ? `${n / 1000}k` : String(n);
  return [
    timeFigure(
      `context.plan.${size}.p50_ms`,
      `plan a turn (auto-recall + planContext), ${size} in recall, p50`,
      mine.p50,
      { label: "today's code (MiniSearch all hits, library BPE) p50", value: before.p50 },
    ),
    timeFigure(
      `context.plan.${size}.p95_ms`,
      `plan a turn (auto-recall + planContext), ${size} in recall, p95`,
      mine.p95,
      { label: "today's code (MiniSearch all hits, library BPE) p95", value: before.p95 },
      n >= 100_000 ? { target: '≤ 30 ms' } : {},
    ),
    timeFigure(
      `context.plan.${size}.one_thread.p95_ms`,
      `plan a turn on one thread (vector search in turn, not beside BM25), ${size} in recall, p95`,
      serial.p95,
      { label: "today's code (MiniSearch all hits, library BPE) p95", value: before.p95 },
    ),
    timeFigure(
      `context.plan.${size}.vs_full_history.p95_ms`,
      `plan a turn (auto-recall + planContext), ${size} in recall, p95`,
      mine.p95,
      { label: 'full-history re-tokenize p95', value: naive.p95 },
    ),
    timeFigure(
      `context.plan_only.${size}.p50_ms`,
      `planContext alone (40-message queue), ${size} in recall, p50`,
      planAt(0.5),
      { label: 'full-history re-tokenize p50', value: naive.p50 },
    ),
    timeFigure(
      `context.plan_only.${size}.p95_ms`,
      `planContext alone (40-message queue), ${size} in recall, p95`,
      planAt(0.95),
      { label: 'full-history re-tokenize p95', value: naive.p95 },
    ),
  ];
}

export const run: BenchSection = async ({ quick }) => {
  const figures: BenchFigure[] = [];
  for (const n of quick ? [1_000, 10_000] : [10_000, 100_000])
    figures.push(...(await scenario(n, quick)));
  return figures;
};
