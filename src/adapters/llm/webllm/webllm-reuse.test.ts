/**
 * E27: the web-llm engine sends each step in the form web-llm 0.2.86 continues from instead of
 * resetting. web-llm does not export its conversation functions, so the check is pinned to the
 * package's rule as `src/core/context/prefix-reuse.ts` states it (`continuesConversation`, the way
 * of an engine without a prefix cache, ADR 0207), read from
 * `node_modules/@mlc-ai/web-llm/lib/index.js` (0.2.86): `preparePrefillInput` (line 19072) resets
 * unless `compareConversationObject` (line 10768: `function_string`, `use_function_calling`,
 * `override_system_message`, message count and every role/name/content) finds the request's
 * messages minus the last equal to the held conversation — the previous request plus
 * `finishReply(this.outputMessage)` (lines 12507, 12590) — and the last reply did not end by
 * `abort` or `length` (line 19087). Sampling settings and `response_format` are not compared, so
 * they never force a reset; only `extra_body.resumable` takes the path that prefills with
 * `reuseKVCache: false` (line 17298), and the engine never sets it. web-llm's own
 * `postInitAndCheckFields` checks every built request.
 */
import {
  ModelType,
  postInitAndCheckFieldsChatCompletion,
  type ChatCompletionRequestStreaming,
} from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { runTurn } from '../../../core/agent/run-turn';
import { DEFAULT_SAMPLING } from '../../../core/agent/sampling';
import { continuesConversation, type EngineExchange } from '../../../core/context/prefix-reuse';
import type { ChatTurn, CompletionRequest } from '../../../core/ports/llm-engine';
import { afterTool, createAgentFixture, reply, step } from '../../../testing/agent-fixture';
import { buildWebLlmRequest } from './build-webllm-request';

const model = 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC';

/** The messages web-llm receives, as chat turns (role and content only, as it compares them). */
function sent(request: ChatCompletionRequestStreaming): ChatTurn[] {
  return request.messages.map((m) => ({
    role: m.role as ChatTurn['role'],
    content: typeof m.content === 'string' ? m.content : JSON.stringify(m.content),
  }));
}

describe('web-llm keeps its KV cache between the steps of a turn', () => {
  it('E27: each built step request continues the previous one under 0.2.86’s rule', async () => {
    const fx = await createAgentFixture({
      autoRecall: false,
      rule: (request) =>
        afterTool(request)
          ? reply('Saved.')
          : step(
              'archival_memory_insert',
              { content: 'Ana bakes rye bread on Sundays.' },
              true,
              'Save the habit first.',
            ),
    });
    const built: { request: ChatCompletionRequestStreaming; output: string }[] = [];
    const complete = fx.engine.complete.bind(fx.engine);
    fx.engine.complete = async (request: CompletionRequest) => {
      const result = await complete(request);
      built.push({ request: buildWebLlmRequest(request, model), output: result.text });
      return result;
    };
    const run = (text: string) => runTurn(fx.deps, fx.agent.id, { type: 'user_message', text });
    await run('I bake rye bread on Sundays.');
    await run('And I swim on Mondays.');
    // Two steps a turn (save, then reply), two turns.
    expect(built).toHaveLength(4);
    let previous: EngineExchange | null = null;
    const reused: boolean[] = [];
    for (const { request, output } of built) {
      expect(() =>
        postInitAndCheckFieldsChatCompletion(request, model, ModelType.LLM),
      ).not.toThrow();
      expect(request.extra_body?.resumable).toBeUndefined();
      // The agent's sampling goes with every step, the same each time (E53).
      expect([request.temperature, request.top_p]).toEqual([
        DEFAULT_SAMPLING.temperature,
        DEFAULT_SAMPLING.topP,
      ]);
      const messages = sent(request);
      reused.push(continuesConversation(previous, messages));
      previous = { messages, output, finishReason: 'stop' };
    }
    // Only the very first request prefills everything: without recalled memories, the next
    // turn's question is the one new message too.
    expect(reused).toEqual([false, true, true, true]);
  });

  it('E27: a reply cut off by max_tokens or stopped cannot be continued, as in 0.2.86', () => {
    const messages: ChatTurn[] = [
      { role: 'system', content: 's' },
      { role: 'user', content: 'hi' },
    ];
    const next: ChatTurn[] = [
      ...messages,
      { role: 'assistant', content: '{"a":1}' },
      { role: 'user', content: '[result of x] ok' },
    ];
    expect(continuesConversation({ messages, output: '{"a":1}', finishReason: 'stop' }, next)).toBe(
      true,
    );
    expect(
      continuesConversation({ messages, output: '{"a":1}', finishReason: 'length' }, next),
    ).toBe(false);
    expect(
      continuesConversation({ messages, output: '{"a":1}', finishReason: 'abort' }, next),
    ).toBe(false);
    // The step re-rendered in any other form than generated (here: without its spacing) resets.
    expect(
      continuesConversation({ messages, output: '{"a": 1}', finishReason: 'stop' }, next),
    ).toBe(false);
  });
});
