/**
 * The host of the live replay (V28) for the CLI and the tests: every world is an in-memory
 * store (the unit tests' store, through the MemoryStore port) with the app's search over
 * MiniSearch BM25 and the in-process vector index, its message vectors persisted beside it; a
 * fork copies the store and the vectors and loads a new search from them, as the app does when
 * it opens an agent. The engine is the scripted engine of the tests and the e2e build.
 */
import { ScriptedEngine } from '../adapters/llm/scripted/scripted-engine';
import { Bm25LexicalIndex } from '../adapters/search/bm25-lexical-index';
import { LocalVectorIndex } from '../adapters/search/local-vector-index';
import { createLlama3ChatTokens } from '../adapters/tokenizer/llama3-chat-tokens';
import type { LiveReplayDeps, LiveWorld } from '../eval/live-replay';
import type { Embedder } from '../core/ports/embedder';
import type { Tokenizer } from '../core/ports/tokenizer';
import { createMemorySearch } from '../core/search/memory-search';
import type { EpochMs } from '../core/units';
import { CounterIds } from './counter-ids';
import { InMemoryStore } from './in-memory-store';
import { InMemoryVectorStore } from './in-memory-vector-store';

export function liveReplayDeps(
  embedder: Embedder | null,
  tokenizer: Tokenizer,
  now: () => EpochMs,
  options: { prefixCache?: boolean } = {},
): LiveReplayDeps {
  const vectorsOf = new WeakMap<LiveWorld, InMemoryVectorStore>();
  const open = async (store: InMemoryStore, vectorStore: InMemoryVectorStore) => {
    const search = createMemorySearch({
      store,
      lexical: new Bm25LexicalIndex(),
      vectors: embedder ? new LocalVectorIndex(embedder.dimension) : null,
      embedder,
      clock: { now },
      vectorStore,
    });
    const world: LiveWorld = { store, search };
    vectorsOf.set(world, vectorStore);
    return world;
  };
  return {
    createWorld: () => open(new InMemoryStore(), new InMemoryVectorStore()),
    async forkWorld(world) {
      const store = world.store as InMemoryStore;
      const vectors = vectorsOf.get(world);
      if (!(store instanceof InMemoryStore) || !vectors) {
        throw new Error('Only a world of this runtime can be forked.');
      }
      const fork = await open(store.fork(), vectors.fork());
      const [agent] = await fork.store.listAgents();
      if (agent) await fork.search.loadAgent(agent.id);
      return fork;
    },
    createEngine: (window, answer) =>
      new ScriptedEngine({
        rule: answer,
        contextWindow: window,
        tokenizer,
        // One delta per reply: the replay needs the text, not the streaming.
        chunkChars: 1_000_000,
        prefixCache: options.prefixCache ?? false,
      }),
    tokenizer,
    chatTokens: createLlama3ChatTokens(),
    ids: new CounterIds(),
  };
}
