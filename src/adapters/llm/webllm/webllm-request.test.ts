import {
  ModelType,
  postInitAndCheckFieldsChatCompletion,
  prebuiltAppConfig,
} from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { buildWebLlmRequest } from './build-webllm-request';
import { classifyWebLlmError } from './classify-webllm-error';
import { mapInitProgress } from './map-init-progress';

const schema = {
  type: 'object',
  properties: { tool: { type: 'string', enum: ['send_message'] } },
  required: ['tool'],
};
const model = 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC';

describe('web-llm request, errors and progress', () => {
  it('E14: a JSON-schema step is a streaming request web-llm accepts, with the schema as a string', () => {
    const request = buildWebLlmRequest(
      {
        messages: [
          { role: 'system', content: 'Reply with one JSON object.' },
          { role: 'user', content: 'hi' },
        ],
        maxTokens: 200,
        temperature: 0.2,
        jsonSchema: schema,
      },
      model,
    );
    expect(prebuiltAppConfig.model_list.some((m) => m.model_id === model)).toBe(true);
    expect(() => postInitAndCheckFieldsChatCompletion(request, model, ModelType.LLM)).not.toThrow();
    expect(request.response_format).toEqual({
      type: 'json_object',
      schema: JSON.stringify(schema),
    });
    expect(typeof request.response_format?.schema).toBe('string');
    expect(request).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 200,
      temperature: 0.2,
    });
  });

  it('E53: temperature and top-p go to web-llm as asked, and web-llm accepts them', () => {
    const request = buildWebLlmRequest(
      {
        messages: [{ role: 'user', content: 'hi' }],
        maxTokens: 50,
        temperature: 1.3,
        topP: 0.35,
        jsonSchema: schema,
      },
      model,
    );
    expect(request).toMatchObject({ temperature: 1.3, top_p: 0.35 });
    expect(() => postInitAndCheckFieldsChatCompletion(request, model, ModelType.LLM)).not.toThrow();
    const greedy = buildWebLlmRequest(
      { messages: [{ role: 'user', content: 'hi' }], maxTokens: 5, temperature: 0, topP: 1 },
      model,
    );
    expect([greedy.temperature, greedy.top_p]).toEqual([0, 1]);
    const unset = buildWebLlmRequest(
      { messages: [{ role: 'user', content: 'x' }], maxTokens: 5 },
      model,
    );
    expect('temperature' in unset || 'top_p' in unset).toBe(false);
  });

  it('E14: a plain request carries no response_format; Qwen3 gets thinking switched off', () => {
    const plain = buildWebLlmRequest(
      { messages: [{ role: 'user', content: 'x' }], maxTokens: 5 },
      model,
    );
    expect('response_format' in plain).toBe(false);
    expect(() => postInitAndCheckFieldsChatCompletion(plain, model, ModelType.LLM)).not.toThrow();
    const qwen3 = buildWebLlmRequest(
      { messages: [{ role: 'user', content: 'x' }], maxTokens: 5 },
      'Qwen3-1.7B-q4f16_1-MLC',
    );
    expect(qwen3.extra_body).toEqual({ enable_thinking: false });
    expect(() =>
      postInitAndCheckFieldsChatCompletion(qwen3, 'Qwen3-1.7B-q4f16_1-MLC', ModelType.LLM),
    ).not.toThrow();
  });

  it("E15: web-llm's string errors map to stable codes", () => {
    const cases: [unknown, string][] = [
      [
        'WebGPUNotAvailableError: WebGPU is not supported in your current environment',
        'webgpu_unavailable',
      ],
      [
        'Error: ShaderF16SupportError: This model requires WebGPU extension shader-f16',
        'shader_f16_unsupported',
      ],
      [new Error('DeviceLostError: The WebGPU device was lost'), 'device_lost'],
      [
        'ContextWindowSizeExceededError: Prompt tokens exceed context window size',
        'context_window_exceeded',
      ],
      [new TypeError('Failed to fetch'), 'network_unavailable'],
      ['QuotaExceededError: quota exceeded', 'storage_quota_exceeded'],
      ['something odd', 'model_load_failed'],
    ];
    for (const [error, code] of cases) {
      const mapped = classifyWebLlmError(error, 'model_load_failed');
      expect(mapped.code).toBe(code);
      expect(mapped.message.length).toBeGreaterThan(5);
    }
    expect(classifyWebLlmError(new TypeError('Failed to fetch')).details).toEqual({
      raw: 'TypeError: Failed to fetch',
    });
  });

  it("E16: web-llm's progress reports map to downloading bytes, compiling, and checking", () => {
    expect(
      mapInitProgress({
        progress: 0.25,
        timeElapsed: 3,
        text: 'Fetching param cache[5/20]: 200MB fetched. 25% completed, 3 secs elapsed. It can take a while when we first visit this page to populate the cache. Later refreshes will become faster.',
      }),
    ).toMatchObject({
      type: 'downloading',
      fraction: 0.25,
      loadedBytes: 200 * 1024 * 1024,
      totalBytes: 800 * 1024 * 1024,
    });
    expect(
      mapInitProgress({
        progress: 0.5,
        timeElapsed: 1,
        text: 'Loading model from cache[10/20]: 400MB loaded. 50% completed, 1 secs elapsed.',
      }),
    ).toMatchObject({ type: 'compiling', fraction: 0.5 });
    expect(mapInitProgress({ progress: 0, timeElapsed: 0, text: 'Start to fetch params' })).toEqual(
      { type: 'checking', text: 'Start to fetch params' },
    );
  });
});
