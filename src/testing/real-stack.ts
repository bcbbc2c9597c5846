/**
 * The real stack for scenario tests (Node): the Dexie store over fake-indexeddb, the hybrid
 * memory search (MiniSearch + local vector matrix + the generated fixture embedder, loaded by
 * real transformers.js), the scripted engine and the Llama 3 tokenizer. The caller imports
 * `fake-indexeddb/auto` first.
 */
import { fileURLToPath } from 'node:url';
import type { AgentDeps } from '../core/agent/agent-deps';
import { createAgentRecord } from '../core/agent/create-agent-record';
import type { Agent, ContextBudgets } from '../core/model';
import type { CompletionRequest } from '../core/ports/llm-engine';
import type { Embedder } from '../core/ports/embedder';
import { createMemorySearch, type LociMemorySearch } from '../core/search/memory-search';
import type { Tokens } from '../core/units';
import { FIXTURE_EMBED } from '../adapters/embed/embed-models';
import {
  TransformersEmbedder,
  configureTransformersEnv,
} from '../adapters/embed/transformers-embedder';
import { ScriptedEngine } from '../adapters/llm/scripted/scripted-engine';
import { LocalVectorIndex } from '../adapters/search/local-vector-index';
import { Bm25LexicalIndex } from '../adapters/search/bm25-lexical-index';
import { openMemoryStore, type DexieMemoryStore } from '../adapters/storage/dexie';
import { createLlama3Tokenizer } from '../adapters/tokenizer/llama3-tokenizer';
import { CounterIds } from './counter-ids';
import { FixedClock } from './fixed-clock';

let fixtureEmbedder: Promise<Embedder> | null = null;

/** The fixture embedding model, loaded once per test file. */
export function loadFixtureEmbedder(): Promise<Embedder> {
  if (!fixtureEmbedder) {
    const models = fileURLToPath(new URL('../../tests/fixtures/models/', import.meta.url));
    configureTransformersEnv({ allowRemoteModels: false, localModelPath: models });
    fixtureEmbedder = TransformersEmbedder.create({ model: FIXTURE_EMBED, device: 'cpu' });
  }
  return fixtureEmbedder;
}

export interface RealStack {
  agent: Agent;
  store: DexieMemoryStore;
  search: LociMemorySearch;
  engine: ScriptedEngine;
  clock: FixedClock;
  ids: CounterIds;
  deps: AgentDeps;
}

export interface RealStackOptions {
  dbName: string;
  rule: (request: CompletionRequest, callIndex: number) => string;
  window?: Tokens;
  budgets?: Partial<ContextBudgets>;
  autoRecall?: boolean;
  /** Use the fixture embedder (hybrid lexical + vector); lexical + recency without it. */
  semantic?: boolean;
  enforceSchema?: boolean;
  ids?: CounterIds;
}

export async function createRealStack(options: RealStackOptions): Promise<RealStack> {
  const store = await openMemoryStore(options.dbName);
  const clock = new FixedClock(Date.UTC(2026, 0, 1, 9, 0, 0), 60_000);
  const ids = options.ids ?? new CounterIds();
  const embedder = options.semantic ? await loadFixtureEmbedder() : null;
  const search = createMemorySearch({
    store,
    lexical: new Bm25LexicalIndex(),
    vectors: embedder ? new LocalVectorIndex(embedder.dimension) : null,
    embedder,
    clock,
    vectorStore: store,
  });
  const tokenizer = createLlama3Tokenizer();
  const window = options.window ?? 4096;
  const engine = new ScriptedEngine({
    rule: options.rule,
    contextWindow: window,
    tokenizer,
    chunkChars: 16,
    enforceSchema: options.enforceSchema ?? true,
  });
  let agent = (await store.getAgent('agent-1')) ?? null;
  if (!agent) {
    const created = createAgentRecord({ id: 'agent-1', name: 'Loci', now: clock.now(), window });
    agent = {
      ...created.agent,
      autoRecall: options.autoRecall ?? true,
      budgets: { ...created.agent.budgets, ...options.budgets },
    };
    await store.apply({ ...created.changes, agents: [agent] });
  }
  await search.loadAgent(agent.id);
  return {
    agent,
    store,
    search,
    engine,
    clock,
    ids,
    deps: { store, search, engine, clock, ids, tokenizer },
  };
}
