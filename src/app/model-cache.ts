import type { ModelCache } from '../adapters/llm/model-manager';
import { isServerModel } from '../adapters/llm/openai-endpoint/endpoint-engine';
import { tolerantCache } from '../adapters/llm/tolerant-cache';
import { createWebLlmModelCache } from '../adapters/llm/webllm/webllm-model-cache';
import type { WorkerLlmEngine } from '../adapters/llm/worker-llm-engine';
import type { CpuModelRecord } from '../core/catalog/cpu-models';

/**
 * Where each kind of model is kept, as one cache for the model manager: CPU (GGUF) models in
 * wllama's OPFS cache, GPU models in web-llm's Cache Storage; a server model has nothing to
 * download or store here.
 */
export function appModelCache(
  llm: WorkerLlmEngine,
  cpuModel: (modelId: string) => CpuModelRecord | undefined,
): ModelCache {
  const gpuCache = tolerantCache(createWebLlmModelCache(llm));
  return {
    has: async (id) => {
      if (isServerModel(id)) return true;
      const model = cpuModel(id);
      return model ? (await llm.ggufCacheStatus(model.urls)).complete : gpuCache.has(id);
    },
    bytes: async (id) => {
      if (isServerModel(id)) return 0;
      const model = cpuModel(id);
      return model ? (await llm.ggufCacheStatus(model.urls)).bytes : gpuCache.bytes(id);
    },
    remove: async (id) => {
      if (isServerModel(id)) return;
      const model = cpuModel(id);
      return model ? llm.ggufCacheDelete(model.urls) : gpuCache.remove(id);
    },
  };
}
