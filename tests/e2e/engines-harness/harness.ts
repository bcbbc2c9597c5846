// The engines e2e harness: exposes the real engine factories on `window.__engines` so
// tests/e2e/engines.spec.ts drives the real workers. Built only by `vite build --mode e2e`.
import { FIXTURE_EMBED, findEmbedModel } from '../../../src/adapters/embed/embed-models';
import { createEmbedWorkerClients } from '../../../src/adapters/embed/worker-embedder';
import { probeWebGpu } from '../../../src/adapters/gpu/webgpu-probe';
import { ModelManager } from '../../../src/adapters/llm/model-manager';
import { loadCatalog } from '../../../src/adapters/llm/webllm/load-catalog';
import { createWebLlmModelCache } from '../../../src/adapters/llm/webllm/webllm-model-cache';
import { createWorkerLlmEngine } from '../../../src/adapters/llm/worker-llm-engine';
import { judgeDevice } from '../../../src/core/capability/gpu-probe';
import { AppError } from '../../../src/core/errors';
import { RpcClient } from '../../../src/rpc/rpc-client';
import { workerConnection } from '../../../src/rpc/worker-connection';

// One LLM worker for the catalog and downloads, started by the first call (while online).
const llm = createWorkerLlmEngine();

const engines = {
  async embed(device: 'wasm' | 'webgpu', texts: string[]) {
    const clients = createEmbedWorkerClients({ model: FIXTURE_EMBED, device });
    try {
      const loaded = await clients.embedder.ready();
      const vectors = await clients.embedder.embedPassages(texts);
      await clients.vectorIndex.add(
        vectors.map((v, i) => ({ id: `t${i}`, kind: 'passage' as const, vector: v })),
      );
      const query = await clients.embedder.embedQuery(texts[0] ?? '');
      const hits = await clients.vectorIndex.search(query, { k: 1 });
      return {
        device: loaded.device,
        vectors: vectors.map((v) => [...v]),
        top: hits[0]?.id ?? null,
      };
    } finally {
      clients.rpc.terminate();
    }
  },

  /** Loads a registry model (e.g. one from the Hub) and reports the outcome as data. */
  async loadEmbedModel(modelId: string) {
    const model = findEmbedModel(modelId);
    if (!model) return { ok: false as const, code: 'not_found', message: modelId };
    const clients = createEmbedWorkerClients({ model, device: 'wasm' });
    try {
      await clients.embedder.ready();
      return { ok: true as const };
    } catch (error) {
      const e = AppError.from(error);
      return { ok: false as const, code: e.code, message: e.message };
    } finally {
      clients.rpc.terminate();
    }
  },

  /** A real Worker that throws on every call: every pending call must reject with worker_crashed. */
  async crashingWorker() {
    const source =
      'self.onmessage = (e) => { if (e.data.type === "call") throw new Error("boom"); };';
    const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    const rpc = new RpcClient<{ hang(args: null): Promise<never> }>(
      workerConnection(() => new Worker(url)),
    );
    const codes = async () =>
      (await Promise.allSettled([rpc.call('hang', null), rpc.call('hang', null)])).map((r) =>
        r.status === 'rejected' ? AppError.from(r.reason).code : 'resolved',
      );
    const first = await codes();
    rpc.restart();
    const afterRestart = await codes();
    rpc.terminate();
    return { first, afterRestart };
  },

  async scriptedChat(prompt: string) {
    const llm = createWorkerLlmEngine({
      engine: 'scripted',
      scripted: {
        rules: [{ pattern: 'hello', flags: 'i', reply: 'Hello from the LLM worker!' }],
        fallback: 'ok',
      },
    });
    try {
      await llm.load('scripted-llama3');
      const deltas: string[] = [];
      const result = await llm.complete({
        messages: [{ role: 'user', content: prompt }],
        maxTokens: 64,
        onDelta: (d) => deltas.push(d),
      });
      const tokenizer = await llm.tokenizer();
      return { text: result.text, deltas, tokenizer: tokenizer.name };
    } finally {
      llm.dispose();
    }
  },

  async catalog() {
    const probe = await probeWebGpu();
    const device = judgeDevice(probe);
    const entries = await loadCatalog(device, llm);
    return {
      probe: probe.type,
      llm: device.llm,
      entries: entries.map((e) => ({ id: e.modelId, verdict: e.verdict })),
    };
  },

  async download(modelId: string) {
    const manager = new ModelManager({
      loader: llm,
      cache: createWebLlmModelCache(llm),
      now: () => Date.now(),
      isOnline: () => navigator.onLine,
    });
    try {
      await manager.download(modelId);
      return { ok: true as const };
    } catch (error) {
      const e = AppError.from(error);
      return {
        ok: false as const,
        code: e.code,
        message: e.message,
        state: manager.getState().models[modelId],
      };
    } finally {
      llm.dispose();
    }
  },
};

declare global {
  interface Window {
    __engines?: typeof engines;
  }
}

window.__engines = engines;
document.getElementById('status')!.textContent = 'ready';
