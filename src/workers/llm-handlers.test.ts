import { prebuiltAppConfig } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { judgeDevice } from '../core/capability/gpu-probe';
import { loadCatalog } from '../adapters/llm/webllm/load-catalog';
import { createWebLlmModelCache } from '../adapters/llm/webllm/webllm-model-cache';
import { createScriptedFromConfig } from '../adapters/llm/scripted/scripted-from-config';
import { WorkerLlmEngine } from '../adapters/llm/worker-llm-engine';
import type { LlmApi } from '../rpc/llm-api';
import type { RpcEndpoint } from '../rpc/protocol';
import { RpcClient, type RpcConnection } from '../rpc/rpc-client';
import { serveRpc } from '../rpc/serve-rpc';
import { createLlmHandlers, type HostedEngine } from './llm-handlers';

/** The LLM worker's real handlers on one end of a MessageChannel, the real client on the other. */
function connectLlm(
  withScripted: boolean,
  onScripted?: (engine: ReturnType<typeof createScriptedFromConfig>) => void,
) {
  const state = { crash: (_r: string) => {} };
  const cached = new Set(['Qwen2.5-0.5B-Instruct-q4f16_1-MLC']);
  const connect = (): RpcConnection => {
    const channel = new MessageChannel();
    const stop = serveRpc<LlmApi>(
      channel.port2 as unknown as RpcEndpoint,
      createLlmHandlers({
        createWebLlm: () => {
          throw new Error('web-llm is not used in this test');
        },
        createWllama: () => {
          throw new Error('wllama is not used in this test');
        },
        ggufCache: { status: async () => ({ complete: false, bytes: 0 }), remove: async () => {} },
        models: {
          list: async () => prebuiltAppConfig.model_list,
          has: async (id) => cached.has(id),
          remove: async (id) => void cached.delete(id),
          bytes: async (id) => (cached.has(id) ? 123 : 0),
        },
        ...(withScripted
          ? {
              createScripted: async (c) => {
                const engine = createScriptedFromConfig(c);
                onScripted?.(engine);
                return engine as HostedEngine;
              },
            }
          : {}),
      }),
    );
    return {
      endpoint: channel.port1 as unknown as RpcEndpoint,
      onCrash: (l) => {
        state.crash = l;
      },
      terminate: () => {
        stop();
        channel.port1.close();
      },
    };
  };
  return { rpc: new RpcClient<LlmApi>(connect), state };
}

describe('LLM worker handlers + WorkerLlmEngine (scripted engine across the RPC)', () => {
  it('E18: the page configures scripted rules; replies stream across the worker boundary', async () => {
    const { rpc } = connectLlm(true);
    const engine = new WorkerLlmEngine(rpc, {
      engine: 'scripted',
      scripted: {
        outputs: ['first reply'],
        rules: [{ pattern: 'birthday', flags: 'i', reply: 'It is on 5 March.' }],
        fallback: 'I see.',
      },
    });
    const progress: string[] = [];
    await engine.load('scripted-llama3', (p) => progress.push(p.type));
    expect(progress.at(-1)).toBe('ready');
    expect(engine.modelId).toBe('scripted-llama3');
    const deltas: string[] = [];
    const ask = (content: string) =>
      engine.complete({
        messages: [{ role: 'user', content }],
        maxTokens: 50,
        onDelta: (d) => deltas.push(d),
      });
    expect((await ask('hello')).text).toBe('first reply');
    expect(deltas.join('')).toBe('first reply');
    expect(deltas.length).toBeGreaterThan(1);
    expect((await ask('When is my BIRTHDAY?')).text).toBe('It is on 5 March.');
    expect((await ask('anything')).text).toBe('I see.');
    await engine.pushScripted('pushed');
    expect((await ask('x')).text).toBe('pushed');
    const tokenizer = await engine.tokenizer();
    expect(tokenizer.exact).toBe(true);
    expect(tokenizer.name).toMatch(/llama3/);
    engine.dispose();
  });

  it('E53: temperature and top-p cross the worker to the engine as asked', async () => {
    let hosted: ReturnType<typeof createScriptedFromConfig> | null = null;
    const { rpc } = connectLlm(true, (e) => (hosted = e));
    const engine = new WorkerLlmEngine(rpc, {
      engine: 'scripted',
      scripted: { outputs: ['one', 'two'], rules: [], fallback: 'x' },
    });
    await engine.load('scripted-llama3');
    await engine.complete({
      messages: [{ role: 'user', content: 'a' }],
      maxTokens: 9,
      temperature: 0.45,
      topP: 0.65,
    });
    await engine.complete({ messages: [{ role: 'user', content: 'b' }], maxTokens: 9 });
    const requests = hosted!.requests;
    expect(requests.map((r) => [r.temperature, r.topP])).toEqual([
      [0.45, 0.65],
      [undefined, undefined],
    ]);
    engine.dispose();
  });

  it('E17: cancelling a streaming completion rejects with cancelled; the worker stays usable', async () => {
    const { rpc } = connectLlm(true);
    const engine = new WorkerLlmEngine(rpc, {
      engine: 'scripted',
      scripted: { fallback: 'word '.repeat(300) },
    });
    await engine.load('scripted-llama3');
    const controller = new AbortController();
    let n = 0;
    const call = engine.complete({
      messages: [{ role: 'user', content: 'go' }],
      maxTokens: 1000,
      signal: controller.signal,
      onDelta: () => {
        n += 1;
        if (n === 5) controller.abort();
      },
    });
    await expect(call).rejects.toMatchObject({ code: 'cancelled' });
    const done = await engine.complete({
      messages: [{ role: 'user', content: 'go' }],
      maxTokens: 3,
    });
    expect(done.finishReason).toBe('length');
    engine.dispose();
  });

  it('E18: a worker built without the scripted engine refuses it (the production shape)', async () => {
    const { rpc } = connectLlm(false);
    const engine = new WorkerLlmEngine(rpc, { engine: 'scripted' });
    await expect(engine.load('scripted-llama3')).rejects.toMatchObject({
      code: 'invalid_argument',
    });
    await expect(
      engine.complete({ messages: [{ role: 'user', content: 'x' }], maxTokens: 1 }),
    ).rejects.toMatchObject({ code: 'model_not_loaded' });
    engine.dispose();
  });

  it('E19: a crash while generating rejects with worker_crashed and unloads the model', async () => {
    const { rpc, state } = connectLlm(true);
    const engine = new WorkerLlmEngine(rpc, {
      engine: 'scripted',
      scripted: { fallback: 'word '.repeat(500) },
    });
    await engine.load('scripted-llama3');
    const call = engine.complete({
      messages: [{ role: 'user', content: 'x' }],
      maxTokens: 2000,
      onDelta: () => {},
    });
    await new Promise((r) => setTimeout(r, 5));
    let lost = 0;
    engine.onCrash(() => (lost += 1));
    state.crash('out of memory');
    await expect(call).rejects.toMatchObject({ code: 'worker_crashed' });
    expect(engine.modelId).toBeNull();
    expect(lost).toBe(1);
    rpc.restart();
    await engine.load('scripted-llama3');
    expect(engine.modelId).toBe('scripted-llama3');
    engine.dispose();
  });
});

describe('catalog and model cache through the LLM worker', () => {
  it('E1: the catalog and cache status come from the worker, so the shell never loads web-llm', async () => {
    const { rpc } = connectLlm(false);
    const engine = new WorkerLlmEngine(rpc);
    const catalog = await loadCatalog(judgeDevice({ type: 'no_adapter' }), engine);
    expect(catalog.map((e) => e.baseId)).toContain('Qwen2.5-0.5B-Instruct');
    const cache = createWebLlmModelCache(engine);
    expect(await cache.has('Qwen2.5-0.5B-Instruct-q4f16_1-MLC')).toBe(true);
    expect(await cache.bytes('Qwen2.5-0.5B-Instruct-q4f16_1-MLC')).toBe(123);
    await cache.remove('Qwen2.5-0.5B-Instruct-q4f16_1-MLC');
    expect(await cache.has('Qwen2.5-0.5B-Instruct-q4f16_1-MLC')).toBe(false);
    engine.dispose();
  });
});
