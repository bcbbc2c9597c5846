import type { WorkerLlmEngine } from '../adapters/llm/worker-llm-engine';
import type { Clock, IdSource } from '../core/ports/clock';
import type { Embedder } from '../core/ports/embedder';
import type { MemoryCheckServices } from '../ui/services';

/**
 * What the Settings memory check runs on (V12–V14): worlds of its own held in memory (a store and
 * a search with the app's embedder, forked per question), and the app's tokenizer. The user's
 * database is never read or written — the replay writes an agent and a display name. Its vectors
 * stay on this thread: the embed worker's matrix holds the active agent's. The worlds' code is
 * loaded when a check starts, not with the app.
 */
export function memoryCheckServices(deps: {
  engine: WorkerLlmEngine;
  /** The embedder in use now (null for words only) and its model's label. */
  embedder: () => Embedder | null;
  embedderName: () => string | null;
  clock: Clock;
  ids: IdSource;
}): MemoryCheckServices {
  const { clock } = deps;
  return {
    worlds: async () => {
      const { memoryWorlds } = await import('../testing/memory-worlds');
      return memoryWorlds(deps.embedder(), () => clock.now());
    },
    tokenizer: () => deps.engine.tokenizer(),
    get embedderName() {
      return deps.embedderName();
    },
    ids: deps.ids,
  };
}
