/**
 * E81 for every engine the LLM worker hosts: a reply past the client cap is stopped in the worker,
 * whichever engine writes it (web-llm and wllama count tokens themselves; this is the backstop).
 */
import { describe, expect, it } from 'vitest';
import { AppError } from '../core/errors';
import type { CompletionRequest, CompletionResult } from '../core/ports/llm-engine';
import { createEstimateTokenizer } from '../core/tokens/estimate-tokenizer';
import { replyCharCap } from '../adapters/llm/reply-limits';
import { createLlmHandlers, type HostedEngine } from './llm-handlers';

/** An engine that ignores `maxTokens`: it writes 10 MB unless it is stopped. */
function runaway(): HostedEngine & { interrupted: number } {
  const engine = {
    modelId: null as string | null,
    interrupted: 0,
    async load(modelId: string) {
      engine.modelId = modelId;
    },
    async unload() {},
    async interrupt() {
      engine.interrupted += 1;
    },
    contextWindow: () => 4096,
    tokenizer: async () => createEstimateTokenizer(),
    tokenizerSource: () => ({ type: 'estimate' as const }),
    async complete(request: CompletionRequest): Promise<CompletionResult> {
      const piece = 'z'.repeat(1000);
      let text = '';
      for (let i = 0; i < 10_000; i += 1) {
        if (request.signal?.aborted) throw new AppError('cancelled', 'The generation was stopped.');
        text += piece;
        request.onDelta?.(piece);
        if (i % 50 === 0) await Promise.resolve();
      }
      return { text, finishReason: 'stop' };
    },
  };
  return engine;
}

function handlersWith(engine: HostedEngine) {
  return createLlmHandlers({
    createWebLlm: () => engine,
    createWllama: () => engine,
    ggufCache: { status: async () => ({ complete: false, bytes: 0 }), remove: async () => {} },
    models: {
      list: async () => [],
      has: async () => false,
      remove: async () => {},
      bytes: async () => 0,
    },
  });
}

const ctx = (emitted: string[] = [], signal = new AbortController().signal) => ({
  emit: (event: unknown) => {
    const e = event as { type: string; text?: string };
    if (e.type === 'delta' && e.text) emitted.push(e.text);
  },
  signal,
});

describe('the LLM worker’s reply cap', () => {
  it('E81: a streamed reply past the cap is stopped with reply_too_long, whatever the engine', async () => {
    const engine = runaway();
    const handlers = handlersWith(engine);
    await handlers.load({ modelId: 'm', engine: 'webllm' }, ctx());
    const emitted: string[] = [];
    let error: AppError | null = null;
    try {
      await handlers.complete(
        { messages: [{ role: 'user', content: 'hi' }], maxTokens: 64, stream: true },
        ctx(emitted),
      );
    } catch (e) {
      error = AppError.from(e);
    }
    expect(error?.code).toBe('reply_too_long');
    expect(emitted.join('').length).toBeLessThanOrEqual(replyCharCap(64));
  });

  it('E81: a whole reply past the cap is refused the same way', async () => {
    const engine = runaway();
    const handlers = handlersWith(engine);
    await handlers.load({ modelId: 'm', engine: 'webllm' }, ctx());
    await expect(
      handlers.complete(
        { messages: [{ role: 'user', content: 'hi' }], maxTokens: 64, stream: false },
        ctx(),
      ),
    ).rejects.toMatchObject({ code: 'reply_too_long' });
  });
});
