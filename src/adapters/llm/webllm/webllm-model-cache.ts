import type { ModelCache } from '../model-manager';
import type { WorkerLlmEngine } from '../worker-llm-engine';

/**
 * The {@link ModelCache} over web-llm's own helpers (`hasModelInCache`,
 * `deleteModelAllInfoInCache`, with the engine's app config), run in the LLM worker so the app
 * shell never loads web-llm's ~6 MB on the main thread.
 */
export function createWebLlmModelCache(llm: WorkerLlmEngine): ModelCache {
  return {
    has: (modelId) => llm.cacheHas(modelId),
    remove: (modelId) => llm.cacheDelete(modelId),
    bytes: (modelId) => llm.cacheBytes(modelId),
  };
}
