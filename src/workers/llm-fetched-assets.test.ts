import { describe, expect, it } from 'vitest';
import { createScriptedFromConfig } from '../adapters/llm/scripted/scripted-from-config';
import { createLlmHandlers, type HostedEngine } from './llm-handlers';

const WASM = 'http://127.0.0.1:4173/wllama/wllama.wasm';
const CHUNK = 'http://127.0.0.1:4173/assets/wllama-lib-abc.js';

/** The LLM worker's handlers with a scripted engine that, like wllama, fetched its wasm elsewhere. */
function handlers() {
  return createLlmHandlers({
    createWebLlm: () => {
      throw new Error('web-llm is not used in this test');
    },
    createWllama: () => {
      throw new Error('wllama is not used in this test');
    },
    ggufCache: { status: async () => ({ complete: false, bytes: 0 }), remove: async () => {} },
    models: {
      list: async () => [],
      has: async () => false,
      remove: async () => {},
      bytes: async () => 0,
    },
    fetched: () => [CHUNK],
    createScripted: async (config) =>
      Object.assign(createScriptedFromConfig(config) as HostedEngine, {
        fetchedElsewhere: () => [WASM],
      }),
  });
}

const ctx = { emit: () => {}, signal: new AbortController().signal };

describe('LLM worker: what it fetched, for offline use (P30)', () => {
  it('P30: lists its own fetches, and once an engine has loaded, what that engine fetched elsewhere — kept after the engine is unloaded', async () => {
    const api = handlers();
    expect(await api.fetchedAssets(null)).toEqual([CHUNK]);
    await api.load({ modelId: 'scripted', engine: 'scripted', scripted: { outputs: [] } }, ctx);
    expect(await api.fetchedAssets(null)).toEqual([CHUNK, WASM]);
    await api.unload(null);
    expect(await api.fetchedAssets(null)).toEqual([CHUNK, WASM]);
  });
});
