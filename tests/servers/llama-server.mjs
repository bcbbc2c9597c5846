/**
 * A real llama.cpp behind the OpenAI-compatible HTTP API, for tests (issue 16, rule E72): a thin
 * HTTP layer on 127.0.0.1 over node-llama-cpp (llama.cpp's CPU build) loading a GGUF model. The
 * tokens, the JSON-schema grammar (`llama.createGrammarForJsonSchema`) and the sampling are
 * llama.cpp's; this file only routes requests and writes SSE, like llama.cpp's own server does.
 *
 * Routes: GET /v1/models, POST /v1/chat/completions (stream or not; `response_format`
 * `json_schema`), GET /props (`n_ctx`), POST /tokenize (`{content}` → `{tokens}`).
 * Test switches (POST /__control, JSON; never exposed through CORS): `cors` ("allow" | "deny"),
 * `apiKey` (string | null), `ignoreSchema` (boolean), `cutNextAfter` (stream this many pieces of
 * the next reply, then drop the connection), `pieceDelayMs` (pause after each streamed piece, so a
 * test can press Stop mid-reply). The same options can be given to `startLlamaServer`.
 *
 * CLI: node tests/servers/llama-server.mjs [--port 8080] [--model path.gguf] [--ctx 8192]
 */
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { getLlama, LlamaGrammarEvaluationState } from 'node-llama-cpp';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const FIXTURE_GGUF = path.resolve(HERE, '../fixtures/models/loci-fixture-llama.gguf');
export const FIXTURE_MODEL_ID = 'loci-fixture-llama';

/**
 * Starts the server; resolves to `{ url, port, control(options), stats(), close() }`.
 * @param {{ port?: number, modelPath?: string, modelId?: string, contextSize?: number,
 *   threads?: number, cors?: 'allow' | 'deny', apiKey?: string | null, ignoreSchema?: boolean,
 *   cutNextAfter?: number | null, pieceDelayMs?: number }} [options]
 */
export async function startLlamaServer(options = {}) {
  const modelId = options.modelId ?? FIXTURE_MODEL_ID;
  const contextSize = options.contextSize ?? 8192;
  const switches = {
    cors: options.cors ?? 'allow',
    apiKey: options.apiKey ?? null,
    ignoreSchema: options.ignoreSchema ?? false,
    cutNextAfter: options.cutNextAfter ?? null,
    pieceDelayMs: options.pieceDelayMs ?? 0,
  };
  const llama = await getLlama({ gpu: false, build: 'never', progressLogs: false });
  const model = await llama.loadModel({ modelPath: options.modelPath ?? FIXTURE_GGUF });
  const context = await model.createContext({
    contextSize,
    threads: options.threads ?? 1,
    sequences: 1,
  });
  const sequence = context.getSequence();
  const grammars = new Map();
  /** Completions run one at a time on the one sequence (llama.cpp server with one slot). */
  let queue = Promise.resolve();
  const stats = { requests: [], completions: [], refused: [] };

  const grammarFor = async (schema) => {
    const key = JSON.stringify(schema);
    let grammar = grammars.get(key);
    if (!grammar) {
      grammar = await llama.createGrammarForJsonSchema(toGbnfDialect(schema));
      grammars.set(key, grammar);
    }
    return grammar;
  };

  /** A plain chat template (the fixture has none): role headers, then the assistant's turn. */
  const render = (messages) =>
    messages.map((m) => `<|${m.role}|>\n${String(m.content ?? '')}\n`).join('') + '<|assistant|>\n';

  /**
   * Reads a completion request before anything is sent back: its grammar, its prompt tokens and
   * its length limit. A prompt plus `max_tokens` past the window is refused with a 400, as vLLM
   * and OpenAI refuse it (llama.cpp's own server refuses a prompt alone past it), before a
   * stream starts — never a dropped connection.
   */
  async function admit(body) {
    const format = body.response_format;
    const schema =
      !switches.ignoreSchema && format?.type === 'json_schema'
        ? (format.json_schema?.schema ?? null)
        : null;
    const grammar = schema ? await grammarFor(schema) : null;
    const maxTokens = Math.max(1, Math.min(Number(body.max_tokens ?? 256), contextSize));
    const prompt = model.tokenize(render(body.messages ?? []), false);
    if (prompt.length + maxTokens > contextSize) {
      stats.refused.push({ prompt_n: prompt.length, max_tokens: maxTokens });
      const error = new Error(
        `request (${prompt.length} tokens + ${maxTokens} to generate) exceeds the available context size (${contextSize} tokens)`,
      );
      error.status = 400;
      error.type = 'exceed_context_size_error';
      throw error;
    }
    return { body, schema, grammar, maxTokens, prompt };
  }

  /**
   * Generates one admitted reply; calls `onPiece` with each new piece of text. Returns usage and
   * timings.
   */
  async function generate(admitted, onPiece, signal, afterPiece = () => undefined) {
    const { body, schema, grammar, maxTokens, prompt } = admitted;
    await sequence.clearHistory();
    const started = performance.now();
    let firstAt = null;
    const tokens = [];
    let text = '';
    // The generator ends by itself at an end-of-generation token (or when the grammar is done).
    let finish = 'stop';
    const iterator = sequence.evaluate(prompt, {
      temperature: Number(body.temperature ?? 0.8),
      seed: Number(body.seed ?? 0) || undefined,
      ...(grammar
        ? { grammarEvaluationState: new LlamaGrammarEvaluationState({ model, grammar }) }
        : {}),
    });
    for await (const token of iterator) {
      if (signal.aborted) {
        finish = 'abort';
        break;
      }
      if (model.isEogToken(token)) {
        finish = 'stop';
        break;
      }
      tokens.push(token);
      firstAt ??= performance.now();
      const full = model.detokenize(tokens);
      // Hold back a piece that ends inside a UTF-8 sequence until its next token completes it.
      if (!full.endsWith('\uFFFD') && full.length > text.length) {
        const piece = full.slice(text.length);
        text = full;
        if (!onPiece(piece)) {
          finish = 'abort';
          break;
        }
        await afterPiece();
      }
      if (tokens.length >= maxTokens) {
        finish = 'length';
        break;
      }
    }
    await iterator.return?.();
    const ended = performance.now();
    const timings = {
      prompt_n: prompt.length,
      predicted_n: tokens.length,
      prompt_ms: (firstAt ?? ended) - started,
      predicted_ms: ended - (firstAt ?? ended),
      predicted_per_second:
        firstAt && ended > firstAt ? (tokens.length / (ended - firstAt)) * 1000 : 0,
    };
    stats.completions.push({ schema: schema !== null, finish, ...timings });
    return {
      text,
      finish,
      usage: {
        prompt_tokens: prompt.length,
        completion_tokens: tokens.length,
        total_tokens: prompt.length + tokens.length,
      },
      timings,
    };
  }

  const corsHeaders = (req) =>
    switches.cors === 'allow' && req.headers.origin
      ? {
          'Access-Control-Allow-Origin': req.headers.origin,
          'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
          'Access-Control-Allow-Headers': 'Authorization, Content-Type',
          'Access-Control-Max-Age': '60',
          Vary: 'Origin',
        }
      : {};

  const send = (req, res, status, body) => {
    res.writeHead(status, { 'Content-Type': 'application/json', ...corsHeaders(req) });
    res.end(JSON.stringify(body));
  };
  const fail = (req, res, status, message, type = 'invalid_request_error') =>
    send(req, res, status, { error: { code: status, message, type } });

  const readBody = (req) =>
    new Promise((resolve, reject) => {
      const parts = [];
      req.on('data', (c) => parts.push(c));
      req.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        try {
          resolve(text ? JSON.parse(text) : {});
        } catch (error) {
          reject(error);
        }
      });
      req.on('error', reject);
    });

  async function chat(req, res, body) {
    if (body.model && body.model !== modelId) {
      return fail(req, res, 404, `model '${body.model}' not found`, 'not_found_error');
    }
    const id = `chatcmpl-${Date.now().toString(36)}`;
    const created = Math.floor(Date.now() / 1000);
    const aborted = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) aborted.abort();
    });
    const cutAfter = switches.cutNextAfter;
    if (body.stream && cutAfter !== null) switches.cutNextAfter = null;
    const run = async () => {
      const admitted = await admit(body);
      if (!body.stream) {
        const out = await generate(admitted, () => !aborted.signal.aborted, aborted.signal);
        return send(req, res, 200, {
          id,
          object: 'chat.completion',
          created,
          model: modelId,
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: out.text },
              finish_reason: out.finish === 'length' ? 'length' : 'stop',
            },
          ],
          usage: out.usage,
          timings: out.timings,
        });
      }
      res.writeHead(200, {
        'Content-Type': 'text/event-stream',
        'Cache-Control': 'no-cache',
        Connection: 'keep-alive',
        ...corsHeaders(req),
      });
      const write = (payload) => res.write(`data: ${JSON.stringify(payload)}\n\n`);
      const chunk = (delta, finish = null) => ({
        id,
        object: 'chat.completion.chunk',
        created,
        model: modelId,
        choices: [{ index: 0, delta, finish_reason: finish }],
      });
      write(chunk({ role: 'assistant', content: null }));
      let pieces = 0;
      const pause = () => new Promise((resolve) => setTimeout(resolve, switches.pieceDelayMs));
      const out = await generate(
        admitted,
        (piece) => {
          if (aborted.signal.aborted) return false;
          write(chunk({ content: piece }));
          pieces += 1;
          if (cutAfter !== null && pieces >= cutAfter) {
            // The server "dies" mid-reply: the connection drops without a final chunk.
            res.socket?.destroy();
            aborted.abort();
            return false;
          }
          return true;
        },
        aborted.signal,
        () => (switches.pieceDelayMs > 0 ? pause() : undefined),
      );
      if (aborted.signal.aborted) return;
      write({
        ...chunk({}, out.finish === 'length' ? 'length' : 'stop'),
        usage: out.usage,
        timings: out.timings,
      });
      res.write('data: [DONE]\n\n');
      res.end();
    };
    const job = queue.then(run, run);
    queue = job.catch(() => {});
    await job;
  }

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    stats.requests.push({
      method: req.method,
      path: url.pathname,
      origin: req.headers.origin ?? null,
    });
    try {
      if (url.pathname === '/__control' && req.method === 'POST') {
        Object.assign(switches, await readBody(req));
        res.writeHead(200, { 'Content-Type': 'application/json' });
        return res.end(JSON.stringify(switches));
      }
      if (req.method === 'OPTIONS') {
        res.writeHead(204, corsHeaders(req));
        return res.end();
      }
      if (switches.apiKey && req.headers.authorization !== `Bearer ${switches.apiKey}`) {
        return fail(req, res, 401, 'Invalid API Key', 'authentication_error');
      }
      if (url.pathname === '/v1/models' && req.method === 'GET') {
        return send(req, res, 200, {
          object: 'list',
          data: [{ id: modelId, object: 'model', created: 0, owned_by: 'llamacpp' }],
        });
      }
      if (url.pathname === '/props' && req.method === 'GET') {
        return send(req, res, 200, {
          default_generation_settings: { n_ctx: contextSize },
          total_slots: 1,
          model_path: modelId,
        });
      }
      if (url.pathname === '/tokenize' && req.method === 'POST') {
        const body = await readBody(req);
        return send(req, res, 200, {
          tokens: [...model.tokenize(String(body.content ?? ''), false)],
        });
      }
      if (url.pathname === '/v1/chat/completions' && req.method === 'POST') {
        return await chat(req, res, await readBody(req));
      }
      return fail(req, res, 404, 'File Not Found', 'not_found_error');
    } catch (error) {
      if (res.headersSent) return res.destroy();
      return fail(
        req,
        res,
        error?.status ?? 500,
        String(error?.message ?? error),
        error?.type ?? 'server_error',
      );
    }
  });
  await new Promise((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = server.address().port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    control: (changes) => Object.assign(switches, changes),
    stats: () => stats,
    async close() {
      server.closeAllConnections?.();
      await new Promise((resolve) => server.close(() => resolve()));
      await context.dispose();
      await model.dispose();
    },
  };
}

/**
 * llama.cpp server's converter (json-schema-to-grammar) reads `anyOf` and `oneOf` alike;
 * node-llama-cpp's reads only `oneOf`. Renaming is the whole translation.
 */
function toGbnfDialect(schema) {
  if (Array.isArray(schema)) return schema.map(toGbnfDialect);
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key === 'anyOf' ? 'oneOf' : key,
      toGbnfDialect(value),
    ]),
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const arg = (name) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const server = await startLlamaServer({
    port: Number(arg('port') ?? 8080),
    ...(arg('model') ? { modelPath: arg('model') } : {}),
    ...(arg('ctx') ? { contextSize: Number(arg('ctx')) } : {}),
    ...(arg('key') ? { apiKey: arg('key') } : {}),
    ...(process.argv.includes('--ignore-schema') ? { ignoreSchema: true } : {}),
    ...(process.argv.includes('--no-cors') ? { cors: 'deny' } : {}),
  });
  console.log(`llama.cpp test server on ${server.url}/v1`);
}
