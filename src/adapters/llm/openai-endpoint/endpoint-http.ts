import { AppError } from '../../../core/errors';
import { isLoopback, sourceMatches } from './server-sources';

/** Where the endpoint engine runs: its fetch, the page's protocol and what the CSP allows. */
export interface EndpointEnv {
  fetch: typeof fetch;
  /** `location.protocol` of the app (`https:` makes plain-http LAN servers mixed content). */
  pageProtocol: string;
  /** CSP source expressions this build's LLM worker may connect to (ADR 0120). */
  allowedSources: readonly string[];
  /**
   * The context is cross-origin isolated with COEP require-corp: an opaque `no-cors` probe is
   * then blocked like a closed port, so a CORS refusal cannot be told from an absent server.
   */
  isolated?: boolean;
}

/** What the user typed, as a URL without a trailing slash; `invalid_argument` otherwise. */
export function parseBaseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new AppError('invalid_argument', `“${text}” is not a web address (http://host:port/v1).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AppError(
      'invalid_argument',
      'The server address must start with http:// or https://.',
    );
  }
  url.hash = '';
  url.search = '';
  url.pathname = url.pathname.replace(/\/+$/, '');
  return url;
}

/** `base` + `/path` (OpenAI routes live under the base, usually `/v1`). */
export function under(base: URL, path: string): string {
  return `${base.origin}${base.pathname}${path}`;
}

/** The server's root: the base without a trailing `/v1` (llama.cpp `/props`, Ollama `/api/show`). */
export function rootOf(base: URL, path: string): string {
  return `${base.origin}${base.pathname.replace(/\/v1$/, '')}${path}`;
}

/** The setting that lets a browser page call each kind of server (CORS). */
export const CORS_HINT =
  'Allow this page’s origin on the server: Ollama — set OLLAMA_ORIGINS (e.g. OLLAMA_ORIGINS=* or this address) and restart it; LM Studio — turn on “Enable CORS” in the server settings; vLLM — start it with --allowed-origins; llama.cpp server allows browsers by default.';

/** Refuses before fetching what the browser would block anyway, with the reason a user can act on. */
export function checkAllowed(url: URL, env: EndpointEnv): void {
  if (env.pageProtocol === 'https:' && url.protocol === 'http:' && !isLoopback(url)) {
    throw new AppError(
      'endpoint_mixed_content',
      `Loci is open over https, and browsers block calls from an https page to a plain-http server (${url.origin}). Serve the model server over https (a reverse proxy with a certificate), or run it on this device at http://127.0.0.1.`,
      { origin: url.origin },
    );
  }
  if (!env.allowedSources.some((source) => sourceMatches(source, url))) {
    throw new AppError(
      'endpoint_blocked',
      `This copy of Loci may only call model servers on this device (${env.allowedSources.join(', ')}). To use ${url.origin}, whoever hosts Loci must add it to LOCI_MODEL_SERVERS when building (the Content-Security-Policy), or run the server on this device.`,
      { origin: url.origin },
    );
  }
}

export interface ServerCall {
  url: string;
  init: RequestInit;
  /** The address the user chose (for the messages). */
  base: URL;
  /** Model id, for `no such model` messages. */
  model?: string;
}

const isAbort = (error: unknown) =>
  (error instanceof DOMException || error instanceof Error) && error.name === 'AbortError';

/**
 * Fetches from the model server and classifies every failure (rule E70): the network refused
 * (`endpoint_unreachable`), the server answered but without CORS headers (`endpoint_cors` — a
 * `no-cors` probe reaches it although the real call failed), a wrong or missing key
 * (`endpoint_auth`), an unknown model (`endpoint_no_model`), a server refusing `json_schema`
 * (`endpoint_no_json_schema`), anything else (`endpoint_failed`, with the server's own words).
 * An abort is `cancelled`.
 */
export async function callServer(call: ServerCall, env: EndpointEnv): Promise<Response> {
  const target = new URL(call.url);
  checkAllowed(target, env);
  let response: Response;
  try {
    response = await env.fetch(call.url, { ...call.init, redirect: 'manual' });
  } catch (error) {
    if (isAbort(error) || call.init.signal?.aborted) {
      throw new AppError('cancelled', 'The generation was stopped.');
    }
    throw await networkFailure(call, env);
  }
  if (isRedirect(response)) throw redirectRefused(response, call);
  if (response.ok) return response;
  throw await httpFailure(response, call);
}

/**
 * A redirect, as a browser shows it under `redirect: 'manual'` (an opaque response of status 0)
 * or as Node's fetch does (the 3xx itself).
 */
export function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
}

/**
 * E84: a model server's redirect is never followed. Following it would send the whole prompt —
 * core memory included — to whatever address it names, and use that address's reply (ADR 0187).
 */
function redirectRefused(response: Response, call: ServerCall): AppError {
  const location = cleanText(response.headers.get('location') ?? '', 200);
  return new AppError(
    'endpoint_redirect',
    `The model server at ${call.base.origin} answered ${call.url} with a redirect${location ? ` to ${location}` : ''}. Loci does not follow redirects from a model server, because that would send your conversation to another address; enter the server’s final address instead.`,
    { origin: call.base.origin, status: response.status },
  );
}

/** Fetch `init` for the engine's optional probes: never follow a redirect (E84). */
export const NO_REDIRECT: Pick<RequestInit, 'redirect'> = { redirect: 'manual' };

async function networkFailure(call: ServerCall, env: EndpointEnv): Promise<AppError> {
  // A browser reports a CORS refusal and a closed port alike (TypeError). An opaque `no-cors`
  // request tells them apart: it resolves when something answered at that address.
  let answered = false;
  try {
    await env.fetch(call.url, {
      method: 'GET',
      mode: 'no-cors',
      credentials: 'omit',
      cache: 'no-store',
    });
    answered = true;
  } catch {
    answered = false;
  }
  if (answered) {
    return new AppError(
      'endpoint_cors',
      `The model server at ${call.base.origin} answered, but it does not allow web pages to read its answers (CORS). ${CORS_HINT}`,
      { origin: call.base.origin },
    );
  }
  if (env.isolated) {
    // Under COEP require-corp the probe is blocked either way (ADR 0122): name both causes.
    return new AppError(
      'endpoint_unreachable',
      `Nothing answered at ${call.base.origin}, or the server answered but does not allow web pages to read its answers (CORS) — the browser does not say which. If the server is running at that address, it is CORS: ${CORS_HINT}`,
      { origin: call.base.origin, corsPossible: true },
    );
  }
  return new AppError(
    'endpoint_unreachable',
    `Nothing answered at ${call.base.origin}. Check that the model server is running, the address and port are right, and (for another machine) that it listens on the network, not only on 127.0.0.1.`,
    { origin: call.base.origin },
  );
}

/** Longest server message quoted to the user (E85). */
const SERVER_MESSAGE_CHARS = 300;
/** Bytes of an error body read at most: a hostile server may send megabytes. */
const ERROR_BODY_BYTES = 64 * 1024;

// Control characters (C0 but tab, LF and CR; C1) and bidi overrides are exactly what it removes.
const UNSAFE_CHARS =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

// Terminal colour and cursor codes (ESC [ … letter), which servers' logs carry into their errors:
// removed whole, so no "[31m" is left behind once the ESC itself is gone.
// eslint-disable-next-line no-control-regex
const TERMINAL_ESCAPES = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

/**
 * `text` made safe to show as one line (E85): control and bidi-override characters removed,
 * runs of whitespace folded, at most `maxChars` characters. Svelte renders it as text, never HTML.
 */
export function cleanText(text: string, maxChars: number): string {
  const clean = text
    .replace(TERMINAL_ESCAPES, '')
    .replace(UNSAFE_CHARS, '')
    .replace(/\s+/g, ' ')
    .trim();
  return clean.length > maxChars ? `${clean.slice(0, maxChars - 1)}…` : clean;
}

/** The start of a response body, at most `maxBytes`, as text; the rest is not read. */
async function readStart(response: Response, maxBytes: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  try {
    while (bytes < maxBytes) {
      const { value, done } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      text += decoder.decode(
        value.subarray(0, Math.max(0, maxBytes - (bytes - value.byteLength))),
        {
          stream: true,
        },
      );
    }
  } finally {
    // The rest of the body is not wanted; cancelling frees the connection.
    reader.cancel().catch(() => undefined);
  }
  return text + decoder.decode();
}

/** The server's error message, as plain text (untrusted: never rendered as HTML). */
async function serverMessage(response: Response): Promise<string> {
  let text = '';
  try {
    text = await readStart(response, ERROR_BODY_BYTES);
  } catch {
    return '';
  }
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown; detail?: unknown };
    const error = body.error;
    const message =
      typeof error === 'string'
        ? error
        : error &&
            typeof error === 'object' &&
            typeof (error as { message?: unknown }).message === 'string'
          ? (error as { message: string }).message
          : typeof body.message === 'string'
            ? body.message
            : typeof body.detail === 'string'
              ? body.detail
              : text;
    return cleanText(message, SERVER_MESSAGE_CHARS);
  } catch {
    return cleanText(text, SERVER_MESSAGE_CHARS);
  }
}

async function httpFailure(response: Response, call: ServerCall): Promise<AppError> {
  const said = await serverMessage(response);
  const quote = said ? ` The server said: “${said}”` : '';
  const status = response.status;
  if (status === 401 || status === 403) {
    return new AppError(
      'endpoint_auth',
      `The model server refused the API key (HTTP ${status}). Check the key in Models → Use my own model server; leave it empty if the server needs none.${quote}`,
      { status },
    );
  }
  if (/json[_ ]?schema|response_format|grammar|structured/i.test(said) && status < 500) {
    return new AppError(
      'endpoint_no_json_schema',
      `The model server does not accept a JSON schema for the reply (response_format json_schema), which Loci needs to keep memory safe. Update the server, or use llama.cpp server, Ollama, LM Studio or vLLM.${quote}`,
      { status },
    );
  }
  if (status === 404 && (call.model !== undefined || /model/i.test(said))) {
    return new AppError(
      'endpoint_no_model',
      `The model server has no model “${call.model ?? ''}”. Pick one it lists (Test connection), or load it on the server first.${quote}`,
      { status, model: call.model },
    );
  }
  if (status === 404) {
    return new AppError(
      'endpoint_failed',
      `The address has no OpenAI-compatible API (HTTP 404 at ${call.url}). The base URL usually ends in /v1.${quote}`,
      { status },
    );
  }
  return new AppError('endpoint_failed', `The model server failed (HTTP ${status}).${quote}`, {
    status,
  });
}
