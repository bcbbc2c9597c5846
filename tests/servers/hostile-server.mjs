/**
 * A hostile OpenAI-compatible model server for tests (issue 34, rules E80–E85, X210): it answers
 * `/v1/models`, `/props` and Test connection's probe like a normal server, then streams each chat
 * completion in the way `mode` says — a reply that never ends, a stream that goes silent, a
 * redirect to another origin, an error 500, garbage. A second server on another port (`elsewhere`)
 * counts every request a redirect would carry to it.
 *
 * Switches: `control({ mode, bytes, pieceDelayMs, message })`. Modes: `normal`, `huge` (`bytes`
 * of one endless `send_message` in 1 KB pieces), `endless` (1 KB pieces every `pieceDelayMs`,
 * forever), `stall-after-first` (headers and one piece, then silence), `stall-before-headers`,
 * `one-byte` (the step one character an event, each event written in two halves), `huge-piece`
 * (one event of `bytes`), `invalid-utf8`, `unterminated`, `sse-garbage`, `redirect`,
 * `error-500`.
 */
import { createServer } from 'node:http';

/** One step of the agent loop that sends `message` and ends the turn. */
export function stepJson(message) {
  return JSON.stringify({
    thinking: 'Answer the user.',
    function: 'send_message',
    arguments: { message },
    request_heartbeat: false,
  });
}

const event = (content, finish = null) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content }, finish_reason: finish }] })}\n\n`;
const DONE = 'data: [DONE]\n\n';

function listen(server) {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(server.address().port)),
  );
}

/**
 * Starts the server and its `elsewhere` twin; resolves to
 * `{ url, elsewhereUrl, control(switches), stats(), close() }`.
 */
export async function startHostileServer() {
  const switches = { mode: 'normal', bytes: 5_000_000, pieceDelayMs: 20, message: 'Hello.' };
  const stats = { completions: 0, elsewhere: 0, cancelled: 0 };
  const open = new Set();

  const cors = (req) => ({
    'Access-Control-Allow-Origin': req.headers.origin ?? '*',
    'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
    'Access-Control-Allow-Headers': 'Authorization, Content-Type',
    'Access-Control-Expose-Headers': 'Location',
  });
  const sendJson = (req, res, status, body) => {
    res.writeHead(status, { 'Content-Type': 'application/json', ...cors(req) });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  const sse = (req, res) =>
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache',
      ...cors(req),
    });
  const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  /** Writes `chunk`, waiting for the socket to drain; false once the client went away. */
  const write = (res, chunk) =>
    new Promise((resolve) => {
      if (res.destroyed || res.writableEnded) return resolve(false);
      if (res.write(chunk)) return resolve(true);
      const done = (ok) => {
        res.off('drain', drained);
        res.off('close', closed);
        resolve(ok);
      };
      const drained = () => done(!res.destroyed);
      const closed = () => done(false);
      res.on('drain', drained);
      res.on('close', closed);
    });

  async function stream(req, res, mode) {
    const message = switches.message;
    switch (mode) {
      case 'huge': {
        sse(req, res);
        await write(
          res,
          event('{"thinking":"x","function":"send_message","arguments":{"message":"'),
        );
        const piece = event('a'.repeat(1024));
        for (let sent = 0; sent < switches.bytes; sent += piece.length) {
          if (!(await write(res, piece))) return;
        }
        await write(res, event('"},"request_heartbeat":false}', 'stop'));
        res.end(DONE);
        return;
      }
      case 'endless': {
        sse(req, res);
        await write(
          res,
          event('{"thinking":"x","function":"send_message","arguments":{"message":"'),
        );
        const piece = event('b'.repeat(1024));
        for (;;) {
          if (!(await write(res, piece))) return;
          await wait(switches.pieceDelayMs);
        }
      }
      case 'stall-after-first':
        sse(req, res);
        await write(res, event('{"thinking":"'));
        return; // never ends: the client must give up
      case 'stall-before-headers':
        return; // no headers, no body
      case 'one-byte': {
        sse(req, res);
        for (const ch of stepJson(message)) {
          const text = event(ch);
          const half = Math.floor(text.length / 2);
          if (!(await write(res, text.slice(0, half)))) return;
          await wait(0);
          if (!(await write(res, text.slice(half)))) return;
        }
        await write(res, event('', 'stop'));
        res.end(DONE);
        return;
      }
      case 'huge-piece': {
        sse(req, res);
        const head = 'data: {"choices":[{"delta":{"content":"';
        await write(res, head);
        const block = 'c'.repeat(65_536);
        for (let sent = 0; sent < switches.bytes; sent += block.length) {
          if (!(await write(res, block))) return;
        }
        res.end('"}}]}\n\n' + DONE);
        return;
      }
      case 'invalid-utf8': {
        sse(req, res);
        const [before, after] = stepJson(`${message} MARK`).split('MARK');
        await write(res, event(before));
        // Bytes that are not UTF-8 inside a JSON string: a lone continuation byte and 0xFF.
        await write(
          res,
          Buffer.concat([
            Buffer.from('data: {"choices":[{"delta":{"content":"'),
            Buffer.from([0x80, 0xff, 0xc3]),
            Buffer.from('"}}]}\n\n'),
          ]),
        );
        await write(res, event(after, 'stop'));
        res.end(DONE);
        return;
      }
      case 'unterminated':
        sse(req, res);
        await write(
          res,
          event('{"thinking":"x","function":"send_message","arguments":{"message":"Hello'),
        );
        await write(res, event('', 'stop'));
        res.end(DONE);
        return;
      case 'sse-garbage': {
        sse(req, res);
        const text = stepJson(message);
        await write(res, ': a comment\n\nevent: nonsense\nid: 7\nretry: x\n\n');
        await write(res, 'data: not json at all\n\ndata: {"choices": 3}\n\n');
        await write(res, 'garbage line without a colon\r\n\r\n');
        await write(
          res,
          `data: ${JSON.stringify({ choices: [{ delta: { content: null } }] })}\n\n`,
        );
        await write(res, event(text.slice(0, 20)));
        await write(res, Buffer.from([0x00, 0x01, 0x0a, 0x0a]));
        await write(res, event(text.slice(20), 'stop'));
        res.end(DONE);
        return;
      }
      default: {
        sse(req, res);
        await write(res, event(stepJson(message), 'stop'));
        res.end(DONE);
      }
    }
  }

  let elsewherePort = 0;
  const server = createServer((req, res) => {
    open.add(res);
    res.on('close', () => {
      open.delete(res);
      if (!res.writableEnded) stats.cancelled += 1;
    });
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors(req));
      res.end();
      return;
    }
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
      if (url.pathname === '/v1/models') {
        // An absurd window (E83): vLLM's field says 1e300, /props says 1e308.
        return sendJson(req, res, 200, {
          object: 'list',
          data: [{ id: 'hostile', object: 'model', max_model_len: 1e300 }],
        });
      }
      if (url.pathname === '/props') return sendJson(req, res, 200, '{"n_ctx": 1e308}');
      if (url.pathname !== '/v1/chat/completions') return sendJson(req, res, 404, { error: 'no' });
      if (!body.stream) {
        // Test connection's probe.
        return sendJson(req, res, 200, {
          choices: [{ message: { content: '{"ok":true}' }, finish_reason: 'stop' }],
        });
      }
      stats.completions += 1;
      const mode = switches.mode;
      if (mode === 'redirect') {
        res.writeHead(307, {
          Location: `http://127.0.0.1:${elsewherePort}/v1/chat/completions`,
          ...cors(req),
        });
        res.end();
        return;
      }
      if (mode === 'error-500') {
        return sendJson(req, res, 500, {
          error: { message: 'CUDA error: out of memory\u0000\u001b[31m in slot 3' },
        });
      }
      stream(req, res, mode).catch(() => res.destroy());
    });
  });
  const port = await listen(server);

  const elsewhere = createServer((req, res) => {
    stats.elsewhere += 1;
    res.writeHead(200, { 'Content-Type': 'text/event-stream', ...cors(req) });
    res.end(event(stepJson('A reply from somewhere else.'), 'stop') + DONE);
  });
  elsewherePort = await listen(elsewhere);

  return {
    url: `http://127.0.0.1:${port}`,
    elsewhereUrl: `http://127.0.0.1:${elsewherePort}`,
    control(changes) {
      Object.assign(switches, changes);
    },
    stats: () => ({ ...stats }),
    async close() {
      for (const res of open) res.destroy();
      await Promise.all([
        new Promise((resolve) => server.close(resolve)),
        new Promise((resolve) => elsewhere.close(resolve)),
      ]);
    },
  };
}
