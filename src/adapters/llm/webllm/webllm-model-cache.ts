import type { ModelCache } from '../model-manager';
import { modelStorageBytes } from './webllm-cache';

/**
 * The {@link ModelCache} over web-llm's own helpers (`hasModelInCache`,
 * `deleteModelAllInfoInCache`) with the same app config the engine uses (its prebuilt list).
 * web-llm is imported on first use so the app shell stays small.
 */
export function createWebLlmModelCache(): ModelCache {
  const webllm = () => import('@mlc-ai/web-llm');
  return {
    async has(modelId) {
      const w = await webllm();
      return w.hasModelInCache(modelId, w.prebuiltAppConfig);
    },
    async remove(modelId) {
      const w = await webllm();
      await w.deleteModelAllInfoInCache(modelId, w.prebuiltAppConfig);
    },
    async bytes(modelId) {
      const w = await webllm();
      return modelStorageBytes(modelId, w.prebuiltAppConfig);
    },
  };
}
