/**
 * The endpoint engine against a real llama.cpp (node-llama-cpp) serving the fixture GGUF over
 * HTTP on 127.0.0.1 (rule E72): the same adapter code the LLM worker runs, with Node's fetch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStepSchema } from '../../src/core/agent/step-schema';
import { createToolRegistry } from '../../src/core/tools/tool-registry';
import { AppError } from '../../src/core/errors';
import { EndpointEngine } from '../../src/adapters/llm/openai-endpoint/endpoint-engine';
import type { EndpointEnv } from '../../src/adapters/llm/openai-endpoint/endpoint-http';
import { LOOPBACK_SOURCES } from '../../src/adapters/llm/openai-endpoint/server-sources';
import { testConnection } from '../../src/adapters/llm/openai-endpoint/test-connection';
import { startLlamaServer, FIXTURE_MODEL_ID } from '../servers/llama-server.mjs';

interface Server {
  url: string;
  control(changes: Record<string, unknown>): void;
  close(): Promise<void>;
}

let server: Server;
const env: EndpointEnv = { fetch, pageProtocol: 'http:', allowedSources: LOOPBACK_SOURCES };

beforeAll(async () => {
  server = (await startLlamaServer({ contextSize: 4096 })) as Server;
});
afterAll(async () => {
  await server?.close();
});

describe('endpoint engine on a real llama.cpp server', () => {
  it('lists the model, reads n_ctx from /props and streams a schema-valid step', async () => {
    server.control({ ignoreSchema: false, apiKey: null, cutNextAfter: null });
    const engine = new EndpointEngine({ baseUrl: `${server.url}/v1` }, env);
    await engine.load(FIXTURE_MODEL_ID as string);
    expect(engine.contextWindow()).toBe(4096);
    expect(engine.serverFacts()).toMatchObject({
      windowSource: 'llama.cpp /props',
      tokenize: true,
    });
    const schema = buildStepSchema(createToolRegistry().specs([]), 64);
    const deltas: string[] = [];
    const result = await engine.complete({
      messages: [{ role: 'user', content: 'Hello there' }],
      maxTokens: 400,
      jsonSchema: schema,
      onDelta: (d) => deltas.push(d),
    });
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(result.text);
    expect(result.promptTokens).toBeGreaterThan(0);
    // llama.cpp's grammar: a finished step is JSON naming one of the tools. (Its string lengths
    // count code points, the loop's check UTF-16 units, so a random emoji-heavy step may still
    // fail the loop's validation: that is an invalid-step retry, not corruption.)
    if (result.finishReason === 'stop') {
      const step = JSON.parse(result.text) as { function?: unknown; arguments?: unknown };
      const names = createToolRegistry()
        .specs([])
        .map((spec) => spec.name);
      expect(names).toContain(step.function);
      expect(typeof step.arguments).toBe('object');
    }
  });

  it('Test connection passes; a wrong key and an ignored schema fail by name', async () => {
    server.control({ ignoreSchema: false, apiKey: null });
    expect(await testConnection({ baseUrl: `${server.url}/v1` }, null, env)).toMatchObject({
      ok: true,
      model: FIXTURE_MODEL_ID,
    });
    server.control({ apiKey: 'right' });
    const wrong = await testConnection({ baseUrl: `${server.url}/v1`, apiKey: 'wrong' }, null, env);
    expect(wrong).toMatchObject({ ok: false, error: { code: 'endpoint_auth' } });
    server.control({ apiKey: null, ignoreSchema: true });
    const ignored = await testConnection({ baseUrl: `${server.url}/v1` }, null, env);
    expect(ignored).toMatchObject({ ok: false, error: { code: 'endpoint_no_json_schema' } });
    server.control({ ignoreSchema: false });
  });

  it('a server dying mid-stream is `endpoint_stream_cut`; the next call works', async () => {
    const engine = new EndpointEngine({ baseUrl: `${server.url}/v1` }, env);
    await engine.load(FIXTURE_MODEL_ID as string);
    server.control({ cutNextAfter: 2 });
    const request = {
      messages: [{ role: 'user' as const, content: 'Hi' }],
      maxTokens: 200,
      jsonSchema: buildStepSchema(createToolRegistry().specs([]), 64),
      onDelta: () => {},
    };
    const error = await engine.complete(request).catch((e: unknown) => AppError.from(e));
    expect((error as AppError).code).toBe('endpoint_stream_cut');
    const again = await engine.complete(request);
    expect(again.text.length).toBeGreaterThan(0);
  });

  it('interrupt stops a reply in flight', async () => {
    const engine = new EndpointEngine({ baseUrl: `${server.url}/v1` }, env);
    await engine.load(FIXTURE_MODEL_ID as string);
    let pieces = 0;
    const running = engine.complete({
      messages: [{ role: 'user', content: 'Hi' }],
      maxTokens: 2000,
      onDelta: () => {
        pieces += 1;
        if (pieces === 3) void engine.interrupt();
      },
    });
    const outcome = await running.then(
      (r) => r.finishReason,
      (e: unknown) => AppError.from(e).code,
    );
    // A free-text reply can end by itself before three pieces; otherwise it must be cancelled.
    expect(pieces >= 3 ? outcome : 'cancelled').toBe('cancelled');
  });
});
