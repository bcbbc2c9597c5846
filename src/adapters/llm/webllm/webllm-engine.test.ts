import {
  prebuiltAppConfig,
  type ChatCompletionChunk,
  type MLCEngine,
  type MLCEngineConfig,
} from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { WebLlmEngine } from './webllm-engine';

const MODEL = 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC';

/** A stand-in for MLCEngine with the surface WebLlmEngine uses, driven by the test. */
function fakeMlc(
  options: {
    reloadError?: unknown;
    chunks?: string[];
    finish?: string;
    streamError?: unknown;
  } = {},
) {
  const calls = { reload: [] as string[], interrupts: 0, requests: [] as unknown[] };
  let config: MLCEngineConfig | null = null;
  let interrupted = false;
  const engine = {
    setInitProgressCallback: () => {},
    async reload(modelId: string) {
      calls.reload.push(modelId);
      config?.initProgressCallback?.({
        progress: 0.5,
        timeElapsed: 1,
        text: 'Fetching param cache[1/2]: 100MB fetched. 50% completed, 1 secs elapsed.',
      });
      if (options.reloadError) throw options.reloadError;
    },
    async unload() {},
    async interruptGenerate() {
      calls.interrupts += 1;
      interrupted = true;
    },
    chat: {
      completions: {
        async create(request: unknown) {
          calls.requests.push(request);
          interrupted = false;
          const pieces = options.chunks ?? ['Hel', 'lo'];
          return (async function* (): AsyncGenerator<ChatCompletionChunk> {
            for (const piece of pieces) {
              await new Promise((r) => setTimeout(r, 1));
              if (options.streamError) throw options.streamError;
              if (interrupted) {
                yield chunk('', 'abort');
                return;
              }
              yield chunk(piece, null);
            }
            yield chunk('', options.finish ?? 'stop');
            yield {
              ...chunk('', null),
              choices: [],
              usage: {
                prompt_tokens: 12,
                completion_tokens: pieces.length,
                total_tokens: 12 + pieces.length,
              },
            } as unknown as ChatCompletionChunk;
          })();
        },
      },
    },
  };
  const create = (c: MLCEngineConfig) => {
    config = c;
    return engine as unknown as MLCEngine;
  };
  return { create, calls };
}

function chunk(content: string, finish: string | null): ChatCompletionChunk {
  return {
    id: 'x',
    object: 'chat.completion.chunk',
    created: 0,
    model: MODEL,
    choices: [
      {
        index: 0,
        delta: { content, role: 'assistant' },
        finish_reason: finish as ChatCompletionChunk['choices'][number]['finish_reason'],
        logprobs: null,
      },
    ],
  } as ChatCompletionChunk;
}

describe('WebLlmEngine (MLCEngine faked, everything else real)', () => {
  it('E17: load maps progress, sets the window from the record; complete streams deltas and usage', async () => {
    const mlc = fakeMlc({ chunks: ['Hel', 'lo', ' there'] });
    const engine = new WebLlmEngine(prebuiltAppConfig, mlc.create);
    const progress: string[] = [];
    await engine.load(MODEL, (p) => progress.push(p.type));
    expect(progress).toEqual(['checking', 'downloading', 'ready']);
    expect(engine.modelId).toBe(MODEL);
    expect(engine.contextWindow()).toBe(4096);
    const deltas: string[] = [];
    const result = await engine.complete({
      messages: [{ role: 'user', content: 'hi' }],
      maxTokens: 20,
      jsonSchema: { type: 'object' },
      onDelta: (d) => deltas.push(d),
    });
    expect(deltas).toEqual(['Hel', 'lo', ' there']);
    expect(result).toEqual({
      text: 'Hello there',
      finishReason: 'stop',
      promptTokens: 12,
      completionTokens: 3,
    });
    expect(mlc.calls.requests[0]).toMatchObject({
      stream: true,
      response_format: { type: 'json_object', schema: '{"type":"object"}' },
    });
    expect(engine.tokenizerSource()).toEqual({
      type: 'tokenizer_json',
      cacheName: 'webllm/model',
      url: 'https://huggingface.co/mlc-ai/Qwen2.5-0.5B-Instruct-q4f16_1-MLC/resolve/main/tokenizer.json',
    });
  });

  it('E17: aborting the signal calls interruptGenerate and rejects with cancelled', async () => {
    const mlc = fakeMlc({ chunks: Array.from({ length: 50 }, () => 'x') });
    const engine = new WebLlmEngine(prebuiltAppConfig, mlc.create);
    await engine.load(MODEL);
    const controller = new AbortController();
    let n = 0;
    const call = engine.complete({
      messages: [{ role: 'user', content: 'hi' }],
      maxTokens: 100,
      signal: controller.signal,
      onDelta: () => {
        n += 1;
        if (n === 3) controller.abort();
      },
    });
    await expect(call).rejects.toMatchObject({ code: 'cancelled' });
    expect(mlc.calls.interrupts).toBe(1);
    expect(n).toBeLessThan(10);
  });

  it('E15: load and generation failures arrive as coded AppErrors; unknown models are not_found', async () => {
    const offline = new WebLlmEngine(
      prebuiltAppConfig,
      fakeMlc({ reloadError: new TypeError('Failed to fetch') }).create,
    );
    await expect(offline.load(MODEL)).rejects.toMatchObject({ code: 'network_unavailable' });
    expect(offline.modelId).toBeNull();
    const other = new WebLlmEngine(prebuiltAppConfig, fakeMlc({ reloadError: 'mystery' }).create);
    await expect(other.load(MODEL)).rejects.toMatchObject({ code: 'model_load_failed' });
    await expect(other.load('No-Such-Model')).rejects.toMatchObject({ code: 'not_found' });
    const lost = new WebLlmEngine(
      prebuiltAppConfig,
      fakeMlc({ streamError: 'DeviceLostError: lost' }).create,
    );
    await lost.load(MODEL);
    await expect(
      lost.complete({ messages: [{ role: 'user', content: 'x' }], maxTokens: 5 }),
    ).rejects.toMatchObject({ code: 'device_lost' });
    const length = new WebLlmEngine(prebuiltAppConfig, fakeMlc({ finish: 'length' }).create);
    await length.load(MODEL);
    expect(
      (await length.complete({ messages: [{ role: 'user', content: 'x' }], maxTokens: 2 }))
        .finishReason,
    ).toBe('length');
    const none = new WebLlmEngine(prebuiltAppConfig, fakeMlc().create);
    await expect(none.complete({ messages: [], maxTokens: 1 })).rejects.toMatchObject({
      code: 'model_not_loaded',
    });
  });
});
