/**
 * Worlds of the live replay (V28, V29) held in memory: each is the tests' in-memory store (the
 * `MemoryStore` contract, over plain maps) with the app's search over MiniSearch BM25 and the
 * in-process vector index, its message vectors persisted beside it; a fork copies the store and
 * the vectors and loads a new search from them, as the app does when it opens an agent. The CLI
 * eval and the in-app memory check run in these (ADR 0212): the check must not write to the
 * user's database, and a question per fork would not run in minutes if each copied one.
 */
import { Bm25LexicalIndex } from '../adapters/search/bm25-lexical-index';
import { LocalVectorIndex } from '../adapters/search/local-vector-index';
import type { LiveWorld } from '../eval/live-replay';
import type { Embedder } from '../core/ports/embedder';
import { createMemorySearch } from '../core/search/memory-search';
import type { EpochMs } from '../core/units';
import { InMemoryStore } from './in-memory-store';
import { InMemoryVectorStore } from './in-memory-vector-store';

export interface MemoryWorlds {
  createWorld(): Promise<LiveWorld>;
  forkWorld(world: LiveWorld): Promise<LiveWorld>;
}

/** Worlds whose search embeds with `embedder` (none: words only) and reads `now` for recency. */
export function memoryWorlds(embedder: Embedder | null, now: () => EpochMs): MemoryWorlds {
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
      const store = world.store;
      const vectors = vectorsOf.get(world);
      if (!(store instanceof InMemoryStore) || !vectors) {
        throw new Error('Only a world of this runtime can be forked.');
      }
      const fork = await open(store.fork(), vectors.fork());
      const [agent] = await fork.store.listAgents();
      if (agent) await fork.search.loadAgent(agent.id);
      return fork;
    },
  };
}
