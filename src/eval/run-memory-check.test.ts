import 'fake-indexeddb/auto';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_EMBED } from '../adapters/embed/embed-models';
import {
  TransformersEmbedder,
  configureTransformersEnv,
} from '../adapters/embed/transformers-embedder';
import { LocalVectorIndex } from '../adapters/search/local-vector-index';
import { Bm25LexicalIndex } from '../adapters/search/bm25-lexical-index';
import { openMemoryStore } from '../adapters/storage/dexie';
import { createLlama3Tokenizer } from '../adapters/tokenizer/llama3-tokenizer';
import type { Embedder } from '../core/ports/embedder';
import { createMemorySearch } from '../core/search/memory-search';
import { createToolRegistry } from '../core/tools/tool-registry';
import { probeConversation } from './probe-conversation';
import { runMemoryCheck, sweepMemoryCheckAgents } from './run-memory-check';
import { createAgentRecord } from '../core/agent/create-agent-record';
import { MemoryTurnLock } from '../testing/memory-turn-lock';

const fixtures = fileURLToPath(new URL('../../tests/fixtures/models/', import.meta.url));

describe('runMemoryCheck with the fixture embedder (real store, search and tokenizer)', () => {
  let embedder: Embedder;
  beforeAll(async () => {
    configureTransformersEnv({ allowRemoteModels: false, localModelPath: fixtures });
    embedder = await TransformersEmbedder.create({ model: FIXTURE_EMBED, device: 'cpu' });
  });

  it('V12: the probe is bilingual, multi-day, and every evidence id names one of its turns', () => {
    const probe = probeConversation();
    const ids = new Set(probe.turns.map((t) => t.id));
    expect(probe.turns.length).toBeGreaterThanOrEqual(30);
    expect(new Set(probe.turns.map((t) => t.session)).size).toBeGreaterThanOrEqual(3);
    expect(probe.turns.some((t) => /\p{Script=Han}/u.test(t.text))).toBe(true);
    expect(probe.questions.length).toBeGreaterThanOrEqual(15);
    for (const q of probe.questions) for (const e of q.evidence) expect(ids.has(e)).toBe(true);
  });

  it('V13: scores every mode and the strategy, then deletes the temporary agent', async () => {
    const store = await openMemoryStore('memory-check-test');
    const before = await store.listAgents();
    let n = 0;
    const result = await runMemoryCheck({
      store,
      createSearch: () =>
        createMemorySearch({
          store,
          lexical: new Bm25LexicalIndex(),
          vectors: new LocalVectorIndex(embedder.dimension),
          embedder,
          clock: { now: () => Date.parse('2025-03-16T00:00:00Z') },
        }),
      tokenizer: createLlama3Tokenizer(),
      clock: { now: () => Date.parse('2025-03-01T00:00:00Z') },
      ids: { next: (prefix = 'id') => `${prefix}-${(n += 1)}` },
      tools: createToolRegistry().specs([]),
      strategy: 'memgpt',
    });
    expect(result.questions).toBe(15);
    expect(Object.keys(result.retrieval)).toEqual(['lexical', 'vector', 'hybrid']);
    // Lexical search in English and Chinese finds most probe facts in the top 5.
    expect(result.retrieval.lexical![5]).toBeGreaterThanOrEqual(0.8);
    expect(result.context.strategy).toBe('memgpt');
    expect(result.context.any).toBeGreaterThan(0);
    expect(await store.listAgents()).toEqual(before);
    expect(await store.countMessages(`memory-check-1`)).toBe(0);
  });

  it('V14: a running check holds its agent, a sweep leaves it alone, and leftovers are swept', async () => {
    const store = await openMemoryStore('memory-check-sweep-test');
    const lock = new MemoryTurnLock();
    const mine = createAgentRecord({ id: 'agent-1', name: 'Ada', now: 1 });
    const leftover = createAgentRecord({ id: 'memory-check-old', name: 'Memory check', now: 2 });
    await store.apply(mine.changes);
    await store.apply(leftover.changes);
    // The leftover of a closed tab goes; the user's agent stays.
    expect(await sweepMemoryCheckAgents(store, lock)).toBe(1);
    expect((await store.listAgents()).map((a) => a.id)).toEqual(['agent-1']);

    // While a check runs, a sweep (as another tab starting) finds its agent held and skips it.
    let sweptMidRun = -1;
    let n = 0;
    const result = await runMemoryCheck({
      store,
      lock,
      createSearch: () =>
        createMemorySearch({
          store,
          lexical: new Bm25LexicalIndex(),
          vectors: null,
          embedder: null,
          clock: { now: () => Date.parse('2025-03-16T00:00:00Z') },
        }),
      tokenizer: createLlama3Tokenizer(),
      clock: { now: () => Date.parse('2025-03-01T00:00:00Z') },
      ids: { next: (prefix = 'id') => `${prefix}-${(n += 1)}` },
      tools: createToolRegistry().specs([]),
      strategy: 'memgpt',
      modes: ['lexical'],
      onProgress: () => {
        if (sweptMidRun === -1) {
          sweptMidRun = -2;
          void sweepMemoryCheckAgents(store, lock).then((count) => (sweptMidRun = count));
        }
      },
    });
    expect(sweptMidRun).toBe(0);
    expect(result.questions).toBe(15);
    // After the run the check's agent is gone and its lock is free.
    expect((await store.listAgents()).map((a) => a.id)).toEqual(['agent-1']);
    expect(await lock.holder('memory-check-1')).toBeNull();
  });
});
