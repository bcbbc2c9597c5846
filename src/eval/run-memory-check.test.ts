import 'fake-indexeddb/auto';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_EMBED } from '../adapters/embed/embed-models';
import {
  TransformersEmbedder,
  configureTransformersEnv,
} from '../adapters/embed/transformers-embedder';
import { openMemoryStore } from '../adapters/storage/dexie';
import { createLlama3Tokenizer } from '../adapters/tokenizer/llama3-tokenizer';
import type { Embedder } from '../core/ports/embedder';
import type { EpochMs } from '../core/units';
import { CounterIds } from '../testing/counter-ids';
import { memoryWorlds } from '../testing/memory-worlds';
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

  it('V13: scores every mode and the strategy through the live path, in a world of its own', async () => {
    const stages = new Set<string>();
    const result = await runMemoryCheck({
      ...memoryWorlds(embedder, () => Date.parse('2025-03-16T00:00:00Z') as EpochMs),
      tokenizer: createLlama3Tokenizer(),
      ids: new CounterIds(),
      strategy: 'memgpt',
      onProgress: (stage) => stages.add(stage.split(' ')[0]!),
    });
    expect(result.questions).toBe(15);
    expect(result.turns).toBe(probeConversation().turns.length);
    expect(Object.keys(result.retrieval)).toEqual(['lexical', 'vector', 'hybrid']);
    // Lexical search in English and Chinese finds most probe facts in the top 5.
    expect(result.retrieval.lexical![5]).toBeGreaterThanOrEqual(0.8);
    expect(result.context).toMatchObject({ strategy: 'memgpt', budget: 600 });
    expect(result.context.any).toBeGreaterThan(0);
    // It reports each stage as it goes: the replay, the searches, the prompts.
    expect([...stages]).toEqual(['replay', 'retrieval', 'context']);
  });

  it('V14: leftovers of earlier checks are swept, but one whose lock another tab holds', async () => {
    const store = await openMemoryStore('memory-check-sweep-test');
    const lock = new MemoryTurnLock();
    const mine = createAgentRecord({ id: 'agent-1', name: 'Ada', now: 1 });
    const leftover = createAgentRecord({ id: 'memory-check-old', name: 'Memory check', now: 2 });
    const running = createAgentRecord({ id: 'memory-check-running', name: 'Memory check', now: 3 });
    for (const record of [mine, leftover, running]) await store.apply(record.changes);
    const release = await lock.acquire('memory-check-running');
    // The leftover of a closed tab goes; the user's agent and the running check's stay.
    expect(await sweepMemoryCheckAgents(store, lock)).toBe(1);
    expect((await store.listAgents()).map((a) => a.id).sort()).toEqual([
      'agent-1',
      'memory-check-running',
    ]);
    await release?.();
    expect(await sweepMemoryCheckAgents(store, lock)).toBe(1);
    expect((await store.listAgents()).map((a) => a.id)).toEqual(['agent-1']);
  });
});
