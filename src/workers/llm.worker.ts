/// <reference lib="webworker" />
// The LLM worker: hosts web-llm or wllama (each lazily imported) or, in the e2e build only, the
// scripted engine.
import { classifyWebLlmError } from '../adapters/llm/webllm/classify-webllm-error';
import { modelStorageBytes } from '../adapters/llm/webllm/webllm-cache';
import { WebLlmEngine } from '../adapters/llm/webllm/webllm-engine';
import { createGgufCache } from '../adapters/llm/wllama/gguf-cache';
import { WllamaEngine, WLLAMA_WASM_PATH } from '../adapters/llm/wllama/wllama-engine';
import { EndpointEngine } from '../adapters/llm/openai-endpoint/endpoint-engine';
import type { EndpointEnv } from '../adapters/llm/openai-endpoint/endpoint-http';
import { MODEL_SERVER_SOURCES } from '../adapters/llm/openai-endpoint/server-sources';
import { testConnection } from '../adapters/llm/openai-endpoint/test-connection';
import type { RpcEndpoint } from '../rpc/protocol';
import { serveRpc } from '../rpc/serve-rpc';
import { createLlmHandlers } from './llm-handlers';

// Offline, before web-llm's chunk was ever cached, the import fails with a fetch error: classified,
// so the Models screen can say the GPU list needs the network once (P32) instead of "internal".
const webllm = () =>
  import('@mlc-ai/web-llm').catch((error: unknown) => {
    throw classifyWebLlmError(error);
  });
// The model server is called from this worker, whose connect-src lists the same sources (ADR 0120).
const endpointEnv: EndpointEnv = {
  fetch: (input, init) => self.fetch(input, init),
  pageProtocol: self.location.protocol,
  allowedSources: MODEL_SERVER_SOURCES,
  isolated: self.crossOriginIsolated === true,
};

serveRpc(
  self as unknown as RpcEndpoint,
  createLlmHandlers({
    createWebLlm: () => new WebLlmEngine(),
    createWllama: (source) =>
      new WllamaEngine(source, {
        // Self-hosted next to the app (never a CDN), fetched only when a CPU model loads.
        wasmUrl: new URL(`${import.meta.env.BASE_URL}${WLLAMA_WASM_PATH}`, self.location.origin)
          .href,
        isolated: self.crossOriginIsolated === true,
        cores: self.navigator.hardwareConcurrency || 1,
      }),
    ggufCache: createGgufCache(),
    createEndpoint: (settings) => new EndpointEngine(settings, endpointEnv),
    testEndpoint: (settings, model) => testConnection(settings, model, endpointEnv),
    models: {
      list: async () => (await webllm()).prebuiltAppConfig.model_list,
      has: async (id) => {
        const w = await webllm();
        return w.hasModelInCache(id, w.prebuiltAppConfig);
      },
      remove: async (id) => {
        const w = await webllm();
        await w.deleteModelAllInfoInCache(id, w.prebuiltAppConfig);
      },
      bytes: async (id) => modelStorageBytes(id, (await webllm()).prebuiltAppConfig),
    },
    // `__LOCI_E2E__` is a compile-time constant: in the production build this branch and the
    // dynamic import vanish, so the scripted engine is not in the bundle (rule E18).
    // What this worker fetched, for the offline check (P30): engine chunks, tokenizers, models.
    fetched: () => performance.getEntriesByType('resource').map((entry) => entry.name),
    createScripted: __LOCI_E2E__
      ? async (config) => {
          const { createScriptedFromConfig } =
            await import('../adapters/llm/scripted/scripted-from-config');
          return createScriptedFromConfig(config);
        }
      : undefined,
  }),
);
