import type { WorkerLlmEngine } from '../adapters/llm/worker-llm-engine';
import { LocalVectorIndex } from '../adapters/search/local-vector-index';
import { Bm25LexicalIndex } from '../adapters/search/bm25-lexical-index';
import type { DexieMemoryStore } from '../adapters/storage/dexie/index';
import type { Clock, IdSource } from '../core/ports/clock';
import type { Embedder } from '../core/ports/embedder';
import type { TurnLock } from '../core/ports/turn-lock';
import { createMemorySearch } from '../core/search/memory-search';
import type { MemoryCheckServices } from '../ui/services';

/**
 * What the Settings memory check runs on (V12–V13): a search of its own per run, with the
 * app's embedder and tokenizer. Its vectors stay on this thread: the embed worker's matrix holds
 * the active agent's, and loading the temporary agent into it would clear them. Nothing of its
 * vectors is persisted.
 */
export function memoryCheckServices(deps: {
  store: DexieMemoryStore;
  engine: WorkerLlmEngine;
  /** The embedder in use now (null for words only) and its model's label. */
  embedder: () => Embedder | null;
  embedderName: () => string | null;
  clock: Clock;
  ids: IdSource;
  lock: TurnLock;
}): MemoryCheckServices {
  const { store, clock } = deps;
  return {
    createSearch: () => {
      const embedder = deps.embedder();
      return createMemorySearch({
        store,
        lexical: new Bm25LexicalIndex(),
        vectors: embedder ? new LocalVectorIndex(embedder.dimension) : null,
        embedder,
        clock,
      });
    },
    tokenizer: () => deps.engine.tokenizer(),
    get embedderName() {
      return deps.embedderName();
    },
    clock,
    ids: deps.ids,
    lock: deps.lock,
  };
}
