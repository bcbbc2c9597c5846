import { describe, expect, it } from 'vitest';
import { AppError } from '../../../core/errors';
import { EndpointEngine, STEP_SCHEMA_NAME } from './endpoint-engine';
import type { EndpointEnv } from './endpoint-http';
import { LOOPBACK_SOURCES, parseServerSources, sourceMatches } from './server-sources';
import { SseParser } from './sse';
import { testConnection } from './test-connection';

type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;

interface Recorded {
  url: string;
  init: RequestInit;
}

/** A fetch double: routes by path; records every call. A thrown TypeError is a network failure. */
function fakeFetch(routes: Record<string, Handler>, calls: Recorded[] = []): typeof fetch {
  return (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    calls.push({ url, init });
    const path = new URL(url).pathname;
    const handler = routes[`${init.method ?? 'GET'} ${path}`];
    if (!handler) return new Response('{"error":"not found"}', { status: 404 });
    return handler(url, init);
  }) as typeof fetch;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** An SSE response streaming `events` (each one `data:` payload), optionally never finishing. */
function sse(events: string[], options: { hang?: boolean; signal?: AbortSignal | null } = {}) {
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const event of events) controller.enqueue(encoder.encode(`data: ${event}\r\n\r\n`));
      if (options.hang) {
        options.signal?.addEventListener('abort', () =>
          controller.error(new DOMException('aborted', 'AbortError')),
        );
        return;
      }
      controller.close();
    },
  });
  return new Response(stream, { headers: { 'Content-Type': 'text/event-stream' } });
}

const chunk = (content: string, finish: string | null = null) =>
  JSON.stringify({ choices: [{ index: 0, delta: { content }, finish_reason: finish }] });

const env = (fetchImpl: typeof fetch, pageProtocol = 'http:'): EndpointEnv => ({
  fetch: fetchImpl,
  pageProtocol,
  allowedSources: [...LOOPBACK_SOURCES, 'https://gpu.example.org'],
});

const BASE = 'http://127.0.0.1:8080/v1';
const models = (): Response => json({ object: 'list', data: [{ id: 'tiny', object: 'model' }] });

async function loaded(routes: Record<string, Handler>, calls: Recorded[] = [], key?: string) {
  const engine = new EndpointEngine(
    { baseUrl: BASE, ...(key ? { apiKey: key } : {}) },
    env(fakeFetch({ 'GET /v1/models': models, ...routes }, calls)),
  );
  await engine.load('tiny');
  return engine;
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return AppError.from(error).code;
  }
  return 'resolved';
}

describe('SseParser', () => {
  it('joins data lines, skips comments, and handles CRLF split across chunks', () => {
    const events: string[] = [];
    const parser = new SseParser((d) => events.push(d));
    parser.push(': keep-alive\r');
    parser.push('\ndata: {"a":');
    parser.push('1}\r');
    parser.push('\n\r\ndata:first\ndata: second\n\nevent: x\ndata: [DONE]\n');
    parser.end();
    expect(events).toEqual(['{"a":1}', 'first\nsecond', '[DONE]']);
  });
});

describe('EndpointEngine', () => {
  it('streams deltas and constrains the step with response_format json_schema (strict)', async () => {
    const calls: Recorded[] = [];
    const engine = await loaded(
      {
        'POST /v1/chat/completions': () =>
          sse([
            chunk('{"a"'),
            chunk(':1}', 'stop'),
            JSON.stringify({ choices: [], usage: { prompt_tokens: 12, completion_tokens: 3 } }),
            '[DONE]',
          ]),
      },
      calls,
      'sk-test',
    );
    const deltas: string[] = [];
    const schema = { type: 'object', properties: { a: { type: 'string', maxLength: 4000 } } };
    const result = await engine.complete({
      messages: [{ role: 'user', content: 'hi' }],
      maxTokens: 64,
      jsonSchema: schema,
      onDelta: (d) => deltas.push(d),
    });
    expect(result).toMatchObject({ text: '{"a":1}', finishReason: 'stop', promptTokens: 12 });
    expect(deltas).toEqual(['{"a"', ':1}']);
    const call = calls.find((c) => c.url.endsWith('/chat/completions'));
    const body = JSON.parse(String(call?.init.body)) as Record<string, unknown>;
    expect(body).toMatchObject({
      model: 'tiny',
      max_tokens: 64,
      stream: true,
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: STEP_SCHEMA_NAME,
          // llama.cpp's grammar refuses repetitions of 2,000 or more.
          schema: { type: 'object', properties: { a: { type: 'string', maxLength: 1999 } } },
          strict: true,
        },
      },
    });
    expect((call?.init.headers as Record<string, string>).Authorization).toBe('Bearer sk-test');
  });

  it('U328: a llama.cpp stream without `usage` still says the tokens generated, from its timings', async () => {
    const engine = await loaded({
      'POST /v1/chat/completions': () =>
        sse([
          chunk('{"a"'),
          JSON.stringify({
            choices: [{ delta: { content: ':1}' }, finish_reason: 'stop' }],
            timings: { prompt_n: 40, predicted_n: 5, cache_n: 30 },
          }),
          '[DONE]',
        ]),
    });
    const result = await engine.complete({
      messages: [{ role: 'user', content: 'hi' }],
      maxTokens: 64,
      onDelta: () => {},
    });
    expect(result).toMatchObject({ text: '{"a":1}', completionTokens: 5, cachedTokens: 30 });
  });

  it('E53: sends the temperature and top-p as `temperature` and `top_p`, and nothing when unset', async () => {
    const calls: Recorded[] = [];
    const engine = await loaded(
      { 'POST /v1/chat/completions': () => json({ choices: [{ message: { content: 'ok' } }] }) },
      calls,
    );
    await engine.complete({
      messages: [{ role: 'user', content: 'hi' }],
      maxTokens: 8,
      temperature: 0.25,
      topP: 0.6,
    });
    await engine.complete({ messages: [{ role: 'user', content: 'hi' }], maxTokens: 8 });
    const bodies = calls
      .filter((c) => c.url.endsWith('/chat/completions'))
      .map((c) => JSON.parse(String(c.init.body)) as Record<string, unknown>);
    expect(bodies[0]).toMatchObject({ temperature: 0.25, top_p: 0.6 });
    expect('temperature' in bodies[1]! || 'top_p' in bodies[1]!).toBe(false);
  });

  it('reads a whole reply when not streaming', async () => {
    const engine = await loaded({
      'POST /v1/chat/completions': () =>
        json({ choices: [{ message: { content: 'hello' }, finish_reason: 'length' }] }),
    });
    const result = await engine.complete({ messages: [], maxTokens: 4 });
    expect(result).toMatchObject({ text: 'hello', finishReason: 'length' });
  });

  it('stops on interrupt and on the caller’s signal with `cancelled`', async () => {
    const engine = await loaded({
      'POST /v1/chat/completions': (_url, init) =>
        sse([chunk('{"thinking":"')], { hang: true, signal: init.signal ?? null }),
    });
    const seen: string[] = [];
    const first = engine.complete({ messages: [], maxTokens: 9, onDelta: (d) => seen.push(d) });
    await new Promise((r) => setTimeout(r, 10));
    await engine.interrupt();
    expect(await codeOf(first)).toBe('cancelled');
    expect(seen).toEqual(['{"thinking":"']);

    const controller = new AbortController();
    const second = engine.complete({
      messages: [],
      maxTokens: 9,
      onDelta: () => {},
      signal: controller.signal,
    });
    await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    expect(await codeOf(second)).toBe('cancelled');
  });

  it('names a stream that ends mid-reply `endpoint_stream_cut`', async () => {
    const engine = await loaded({
      'POST /v1/chat/completions': () => sse([chunk('{"thin')]),
    });
    expect(await codeOf(engine.complete({ messages: [], maxTokens: 9, onDelta: () => {} }))).toBe(
      'endpoint_stream_cut',
    );
  });

  it('reads the window from llama.cpp /props, then Ollama /api/show, else the setting', async () => {
    const props = await loaded({
      'GET /props': () => json({ default_generation_settings: { n_ctx: 8192 } }),
    });
    expect(props.contextWindow()).toBe(8192);
    expect(props.serverFacts()?.windowSource).toBe('llama.cpp /props');

    const ollama = await loaded({
      'POST /api/show': () =>
        json({ model_info: { 'llama.context_length': 131072 }, parameters: 'num_ctx 16384' }),
    });
    expect(ollama.contextWindow()).toBe(16384);

    const setting = new EndpointEngine(
      { baseUrl: BASE, contextWindow: 12000 },
      env(fakeFetch({ 'GET /v1/models': models })),
    );
    await setting.load('tiny');
    expect(setting.contextWindow()).toBe(12000);
    expect(setting.serverFacts()).toMatchObject({ windowSource: 'setting', tokenize: false });
  });

  it('counts with /tokenize where the server has it, and plans with the labelled estimate', async () => {
    const engine = await loaded({
      'POST /tokenize': (_u, init) => {
        const { content } = JSON.parse(String(init.body)) as { content: string };
        return json({ tokens: content.split(' ').map((_, i) => i) });
      },
    });
    expect(engine.serverFacts()?.tokenize).toBe(true);
    expect(await engine.countTokens('one two three')).toBe(3);
    expect((await engine.tokenizer()).exact).toBe(false);
  });

  it('E86: with /tokenize, max_tokens is cut so the prompt as the server counts it and the reply fit its window', async () => {
    const calls: Recorded[] = [];
    // One token per character: far more than the estimate reads for plain letters.
    const engine = await loaded(
      {
        'GET /props': () => json({ default_generation_settings: { n_ctx: 1000 } }),
        'POST /tokenize': (_u, init) => {
          const { content } = JSON.parse(String(init.body)) as { content: string };
          return json({ tokens: [...content].map((_, i) => i) });
        },
        'POST /v1/chat/completions': () => sse([chunk('{}', 'stop'), '[DONE]']),
      },
      calls,
    );
    const sent = (): { max_tokens?: number }[] =>
      calls
        .filter((c) => c.url.endsWith('/chat/completions'))
        .map((c) => JSON.parse(String(c.init.body)) as { max_tokens?: number });
    const tokenizeCalls = (): number => calls.filter((c) => c.url.endsWith('/tokenize')).length;

    // 500 characters + the template's 16 tokens leave 484 of the 1,000-token window.
    const long = { role: 'user' as const, content: 'a'.repeat(500) };
    await engine.complete({ messages: [long], maxTokens: 700, onDelta: () => {} });
    expect(sent().at(-1)?.max_tokens).toBe(484);

    // A short prompt with room to spare is sent as planned, without counting it first.
    const counted = tokenizeCalls();
    await engine.complete({
      messages: [{ role: 'user', content: 'hi' }],
      maxTokens: 100,
      onDelta: () => {},
    });
    expect(sent().at(-1)?.max_tokens).toBe(100);
    expect(tokenizeCalls()).toBe(counted);

    // A prompt that alone fills the window is refused before anything is sent.
    const before = sent().length;
    const error = await engine
      .complete({
        messages: [{ role: 'user', content: 'a'.repeat(1200) }],
        maxTokens: 700,
        onDelta: () => {},
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'context_window_exceeded',
      message: expect.stringContaining('1,216 tokens as the model server counts them'),
    });
    expect(sent()).toHaveLength(before);
  });

  it('E86: without /tokenize the planned max_tokens is sent unchanged', async () => {
    const calls: Recorded[] = [];
    const engine = await loaded(
      {
        'GET /props': () => json({ default_generation_settings: { n_ctx: 1000 } }),
        'POST /v1/chat/completions': () => sse([chunk('{}', 'stop'), '[DONE]']),
      },
      calls,
    );
    await engine.complete({
      messages: [{ role: 'user', content: 'a'.repeat(500) }],
      maxTokens: 700,
      onDelta: () => {},
    });
    const body = calls.find((c) => c.url.endsWith('/chat/completions'))?.init.body;
    expect(JSON.parse(String(body))).toMatchObject({ max_tokens: 700 });
  });

  it('refuses a model the server does not list', async () => {
    const engine = new EndpointEngine(
      { baseUrl: BASE },
      env(fakeFetch({ 'GET /v1/models': models })),
    );
    expect(await codeOf(engine.load('llama3:70b'))).toBe('endpoint_no_model');
  });
});

describe('error classification', () => {
  const failing = (base: string, routes: Record<string, Handler>, pageProtocol = 'http:') =>
    new EndpointEngine({ baseUrl: base }, env(fakeFetch(routes), pageProtocol)).listModels();

  it('401/403 is a key problem', async () => {
    expect(
      await codeOf(failing(BASE, { 'GET /v1/models': () => json({ error: 'bad key' }, 401) })),
    ).toBe('endpoint_auth');
  });

  it('tells a CORS refusal from a server that is not there', async () => {
    const cors: typeof fetch = (async (_u: unknown, init?: RequestInit) => {
      if (init?.mode === 'no-cors') return new Response(null, { status: 200 });
      throw new TypeError('Failed to fetch');
    }) as typeof fetch;
    const down: typeof fetch = (async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof fetch;
    const corsError = await new EndpointEngine({ baseUrl: BASE }, env(cors))
      .listModels()
      .catch((e: unknown) => AppError.from(e));
    expect((corsError as AppError).code).toBe('endpoint_cors');
    expect((corsError as AppError).message).toContain('OLLAMA_ORIGINS');
    expect(await codeOf(new EndpointEngine({ baseUrl: BASE }, env(down)).listModels())).toBe(
      'endpoint_unreachable',
    );
  });

  it('an isolated page, where the probe is blocked too, names both causes and the CORS setting', async () => {
    const blocked: typeof fetch = (async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof fetch;
    const error = await new EndpointEngine({ baseUrl: BASE }, { ...env(blocked), isolated: true })
      .listModels()
      .catch((e: unknown) => AppError.from(e));
    expect((error as AppError).code).toBe('endpoint_unreachable');
    expect((error as AppError).message).toContain('(CORS)');
    expect((error as AppError).message).toContain('OLLAMA_ORIGINS');
  });

  it('an https page calling a plain-http LAN server is mixed content; loopback is fine', async () => {
    const routes = { 'GET /v1/models': models };
    expect(await codeOf(failing('http://192.168.1.20:11434/v1', routes, 'https:'))).toBe(
      'endpoint_mixed_content',
    );
    expect(await codeOf(failing(BASE, routes, 'https:'))).toBe('resolved');
  });

  it('refuses an address the build’s policy does not allow, before fetching', async () => {
    const calls: Recorded[] = [];
    const engine = new EndpointEngine(
      { baseUrl: 'https://other.example.net/v1' },
      env(fakeFetch({ 'GET /v1/models': models }, calls)),
    );
    expect(await codeOf(engine.listModels())).toBe('endpoint_blocked');
    expect(calls).toHaveLength(0);
  });

  it('a 400 about response_format is no JSON-schema support; a 404 for the model is no such model', async () => {
    const schemaRefusal = await loaded({
      'POST /v1/chat/completions': () =>
        json({ error: { message: "Unsupported response_format type 'json_schema'" } }, 400),
    });
    expect(
      await codeOf(schemaRefusal.complete({ messages: [], maxTokens: 4, jsonSchema: {} })),
    ).toBe('endpoint_no_json_schema');
    const missing = await loaded({
      'POST /v1/chat/completions': () =>
        json({ error: { message: 'model "tiny" not found, try pulling it first' } }, 404),
    });
    expect(await codeOf(missing.complete({ messages: [], maxTokens: 4 }))).toBe(
      'endpoint_no_model',
    );
  });
});

describe('testConnection', () => {
  it('reports a server that accepts the schema but ignores it', async () => {
    const report = await testConnection(
      { baseUrl: BASE },
      null,
      env(
        fakeFetch({
          'GET /v1/models': models,
          'POST /v1/chat/completions': () =>
            json({ choices: [{ message: { content: 'Sure! ok' }, finish_reason: 'stop' }] }),
        }),
      ),
    );
    expect(report).toMatchObject({
      ok: false,
      models: ['tiny'],
      error: { code: 'endpoint_no_json_schema' },
    });
  });

  it('passes with the model, window and /tokenize when the server follows the schema', async () => {
    const report = await testConnection(
      { baseUrl: BASE },
      'tiny',
      env(
        fakeFetch({
          'GET /v1/models': models,
          'GET /props': () => json({ n_ctx: 2048 }),
          'POST /v1/chat/completions': () =>
            json({ choices: [{ message: { content: '{"ok": true}' }, finish_reason: 'stop' }] }),
        }),
      ),
    );
    expect(report).toMatchObject({ ok: true, model: 'tiny', contextWindow: 2048, tokenize: false });
  });
});

describe('server sources', () => {
  it('matches CSP source expressions the way the policy does', () => {
    expect(sourceMatches('http://127.0.0.1:*', new URL('http://127.0.0.1:11434/v1'))).toBe(true);
    expect(sourceMatches('http://127.0.0.1:*', new URL('https://127.0.0.1:11434/v1'))).toBe(false);
    expect(sourceMatches('https://*.example.org', new URL('https://gpu.example.org/v1'))).toBe(
      true,
    );
    expect(sourceMatches('https://gpu.example.org', new URL('https://gpu.example.org:8443'))).toBe(
      false,
    );
    expect(parseServerSources(' https://a.lan:8443/ , javascript:alert(1), http://b:*')).toEqual([
      'https://a.lan:8443',
      'http://b:*',
    ]);
  });
});
