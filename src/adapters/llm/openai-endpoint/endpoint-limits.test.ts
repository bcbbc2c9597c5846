/**
 * Issue 34: what a hostile or broken model server cannot do to the app — a reply that never ends
 * (E81), a stream that goes silent (E82), an absurd window (E83), a redirect that would carry the
 * prompt elsewhere (E84), and an error text that must reach the user readable and bounded (E85).
 */
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../core/errors';
import { EndpointEngine, MAX_SERVER_WINDOW } from './endpoint-engine';
import type { EndpointEnv } from './endpoint-http';
import { LOOPBACK_SOURCES } from './server-sources';
import { SseParser } from './sse';
import { replyCharCap } from '../reply-limits';

const BASE = 'http://127.0.0.1:8080/v1';

interface Call {
  url: string;
  init: RequestInit;
}

type Route = (init: RequestInit) => Response | Promise<Response>;

function server(routes: Record<string, Route>, calls: Call[] = []): EndpointEnv {
  const fetchImpl = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    calls.push({ url, init });
    const route = routes[`${init.method ?? 'GET'} ${new URL(url).pathname}`];
    if (!route) return new Response('{"error":"not found"}', { status: 404 });
    return route(init);
  }) as typeof fetch;
  return { fetch: fetchImpl, pageProtocol: 'http:', allowedSources: LOOPBACK_SOURCES };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const models = () => json({ data: [{ id: 'tiny' }] });
const chunk = (content: string) => JSON.stringify({ choices: [{ delta: { content } }] });

/** A stream that sends `piece` forever (until cancelled), each as one SSE event. */
function endless(piece: string, signal?: AbortSignal | null): Response {
  const bytes = new TextEncoder().encode(`data: ${chunk(piece)}\n\n`);
  let cancelled = false;
  signal?.addEventListener('abort', () => (cancelled = true));
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (cancelled) controller.error(new DOMException('aborted', 'AbortError'));
      else controller.enqueue(bytes);
    },
  });
  return new Response(stream, { headers: { 'Content-Type': 'text/event-stream' } });
}

/** A stream that sends `first` and then nothing, until cancelled. */
function silentAfter(first: string, signal?: AbortSignal | null): Response {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      if (first) controller.enqueue(new TextEncoder().encode(first));
      signal?.addEventListener('abort', () =>
        controller.error(new DOMException('aborted', 'AbortError')),
      );
    },
  });
  return new Response(stream, { headers: { 'Content-Type': 'text/event-stream' } });
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    return AppError.from(error);
  }
  throw new Error('resolved');
}

const ask = (engine: EndpointEngine, onDelta: (d: string) => void = () => {}) =>
  engine.complete({ messages: [{ role: 'user', content: 'hi' }], maxTokens: 64, onDelta });

describe('E81: a reply past the client cap is stopped', () => {
  it('E81: a server that never stops is cut at the cap with reply_too_long, and its stream is cancelled', async () => {
    let signal: AbortSignal | null | undefined;
    const env = server({
      'GET /v1/models': models,
      'POST /v1/chat/completions': (init) => {
        signal = init.signal;
        return endless('x'.repeat(1024), init.signal);
      },
    });
    const engine = new EndpointEngine({ baseUrl: BASE }, env);
    await engine.load('tiny');
    let streamed = 0;
    const error = await failure(ask(engine, (d) => (streamed += d.length)));
    expect(error.code).toBe('reply_too_long');
    expect(error.message).toContain('127.0.0.1:8080');
    expect(streamed).toBeLessThanOrEqual(replyCharCap(64));
    expect(signal?.aborted).toBe(true);
  });

  it('E81: one huge line without an end (no newline ever) is cut too', async () => {
    const env = server({
      'GET /v1/models': models,
      'POST /v1/chat/completions': (init) => {
        const piece = new TextEncoder().encode('y'.repeat(65_536));
        let sent = false;
        const stream = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (init.signal?.aborted) controller.error(new DOMException('aborted', 'AbortError'));
            else controller.enqueue(sent ? piece : new TextEncoder().encode('data: {"x":"'));
            sent = true;
          },
        });
        return new Response(stream);
      },
    });
    const engine = new EndpointEngine({ baseUrl: BASE }, env);
    await engine.load('tiny');
    expect((await failure(ask(engine))).code).toBe('reply_too_long');
  });
});

describe('E82: a stalled stream stops with a plain-words error naming the server', () => {
  it('E82: no byte after the first piece for the stall time: endpoint_stalled', async () => {
    const env = server({
      'GET /v1/models': models,
      'POST /v1/chat/completions': (init) =>
        silentAfter(`data: ${chunk('{"function":')}\n\n`, init.signal),
    });
    const engine = new EndpointEngine({ baseUrl: BASE, stallSeconds: 0.2 }, env);
    await engine.load('tiny');
    const error = await failure(ask(engine));
    expect(error.code).toBe('endpoint_stalled');
    expect(error.message).toContain('http://127.0.0.1:8080');
  }, 3_000);

  it('E82: no headers at all for the stall time: endpoint_stalled', async () => {
    const env = server({
      'GET /v1/models': models,
      'POST /v1/chat/completions': (init) =>
        new Promise<Response>((_, reject) =>
          init.signal?.addEventListener('abort', () =>
            reject(new DOMException('aborted', 'AbortError')),
          ),
        ),
    });
    const engine = new EndpointEngine({ baseUrl: BASE, stallSeconds: 0.2 }, env);
    await engine.load('tiny');
    expect((await failure(ask(engine))).code).toBe('endpoint_stalled');
  }, 3_000);
});

describe('E83: a server-reported window is bounded', () => {
  const windowWith = async (routes: Record<string, Route>, contextWindow?: number) => {
    const engine = new EndpointEngine(
      { baseUrl: BASE, ...(contextWindow ? { contextWindow } : {}) },
      server({ 'GET /v1/models': models, ...routes }),
    );
    await engine.load('tiny');
    return { window: engine.contextWindow(), facts: engine.serverFacts() };
  };

  it('E83: /props n_ctx of 1e12 or 1e308 plans with the maximum, and says it was capped', async () => {
    for (const nCtx of [1e12, 1e308]) {
      const { window, facts } = await windowWith({ 'GET /props': () => json({ n_ctx: nCtx }) });
      expect(window).toBe(MAX_SERVER_WINDOW);
      expect(facts?.contextWindow).toBe(MAX_SERVER_WINDOW);
      expect(facts?.windowCapped).toBe('maximum');
    }
  });

  it('E83: vLLM max_model_len 1e300 is capped; a non-number or an overflowing figure is ignored', async () => {
    const vllm = await windowWith({
      'GET /v1/models': () => json({ data: [{ id: 'tiny', max_model_len: 1e300 }] }),
    });
    expect(vllm.window).toBe(MAX_SERVER_WINDOW);
    const overflow = await windowWith({
      'GET /props': () => new Response('{"n_ctx": 1e999}', { status: 200 }),
    });
    expect(overflow.window).toBe(4096);
    const text = await windowWith({ 'GET /props': () => json({ n_ctx: '99999999999' }) });
    expect(text.window).toBe(4096);
  });

  it('E83: the user’s own window setting caps what the server says', async () => {
    const capped = await windowWith({ 'GET /props': () => json({ n_ctx: 32_768 }) }, 8192);
    expect(capped.window).toBe(8192);
    expect(capped.facts?.windowCapped).toBe('setting');
    const smaller = await windowWith({ 'GET /props': () => json({ n_ctx: 4096 }) }, 8192);
    expect(smaller.window).toBe(4096);
    expect(smaller.facts?.windowCapped).toBeUndefined();
  });
});

describe('E84: redirects are refused', () => {
  it('E84: a 307 from the chat route is endpoint_redirect, and no call follows redirects', async () => {
    const calls: Call[] = [];
    const redirect = () =>
      new Response(null, { status: 307, headers: { Location: 'http://127.0.0.1:9999/v1/x' } });
    const env = server(
      {
        'GET /v1/models': models,
        'GET /props': () => json({ n_ctx: 8192 }),
        'POST /v1/chat/completions': redirect,
      },
      calls,
    );
    const engine = new EndpointEngine({ baseUrl: BASE }, env);
    await engine.load('tiny');
    const error = await failure(ask(engine));
    expect(error.code).toBe('endpoint_redirect');
    expect(error.message).toContain('redirect');
    // Every request the engine made told fetch not to follow a redirect.
    expect(calls.length).toBeGreaterThan(1);
    expect(calls.every((c) => c.init.redirect === 'manual')).toBe(true);
  });

  it('E84: a browser’s opaque redirect (status 0) is refused the same way', async () => {
    const opaque = Object.assign(new Response(null, { status: 200 }), {});
    Object.defineProperty(opaque, 'type', { value: 'opaqueredirect' });
    Object.defineProperty(opaque, 'ok', { value: false });
    Object.defineProperty(opaque, 'status', { value: 0 });
    const env = server({ 'GET /v1/models': () => opaque });
    const engine = new EndpointEngine({ baseUrl: BASE }, env);
    expect((await failure(engine.load('tiny'))).code).toBe('endpoint_redirect');
  });
});

describe('E85: the server’s error text reaches the user, readable and bounded', () => {
  it('E85: control characters and terminal colour codes are removed and the text is bounded to 300 characters', async () => {
    const said = `model \u001b[31mexploded\u0000\u202e in\r\nslot 3 ${'x'.repeat(10_000)}`;
    const env = server({
      'GET /v1/models': models,
      'POST /v1/chat/completions': () => json({ error: { message: said } }, 500),
    });
    const engine = new EndpointEngine({ baseUrl: BASE }, env);
    await engine.load('tiny');
    const error = await failure(ask(engine));
    expect(error.code).toBe('endpoint_failed');
    expect(error.message).toContain('model exploded in slot 3 xxx');
    const unsafe = [...error.message].filter((ch) => {
      const code = ch.charCodeAt(0);
      return code < 0x20 || code === 0x7f || code === 0x202e;
    });
    expect(unsafe).toEqual([]);
    expect(error.message.length).toBeLessThan(450);
  });
});

describe('SseParser', () => {
  it('E81: a line longer than its limit is refused instead of growing without bound', () => {
    const parser = new SseParser(() => {}, 1000);
    parser.push('data: ');
    expect(() => {
      for (let i = 0; i < 100; i += 1) parser.push('z'.repeat(100));
    }).toThrow(AppError);
  });
});
