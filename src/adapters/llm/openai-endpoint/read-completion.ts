/**
 * Reading a model server's reply under the client's limits (E80–E82, ADR 0187): a streamed reply
 * is parsed in linear time and handed on one piece per network read; its text and its bytes are
 * capped; every byte re-arms the stall watch. Nothing here keeps part of a reply that failed.
 */
import { AppError } from '../../../core/errors';
import type { CompletionResult } from '../../../core/ports/llm-engine';
import { cleanText } from './endpoint-http';
import { SseParser } from './sse';

/** A finite positive number, floored; null for anything else (text, NaN, Infinity, 0). */
export const positive = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : null;

/** A response body as JSON, or null when it is not JSON or longer than `maxBytes`. */
export async function readJson(response: Response, maxBytes: number): Promise<unknown> {
  const text = await readCapped(response, maxBytes, () => {});
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** The whole body as text, or null past `maxBytes` (the rest is cancelled, not read). */
async function readCapped(
  response: Response,
  maxBytes: number,
  onBytes: () => void,
): Promise<string | null> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let bytes = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    onBytes();
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    parts.push(decoder.decode(value, { stream: true }));
  }
  parts.push(decoder.decode());
  return parts.join('');
}

/** Silence detector for one request: `arm` on every byte, `fired` once it went off (E82). */
export class StallWatch {
  private timer: ReturnType<typeof setTimeout> | undefined;
  fired = false;

  constructor(
    private readonly ms: number,
    private readonly onStall: () => void,
  ) {}

  arm(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.fired = true;
      this.onStall();
    }, this.ms);
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}

/** What one reply may take (E81). */
export interface ReplyLimits {
  chars: number;
  bytes: number;
  origin: string;
}

function tooLong(limits: ReplyLimits, what: string): AppError {
  return new AppError(
    'reply_too_long',
    `The model server at ${limits.origin} sent ${what}, far more than was asked for, so Loci stopped it.`,
    { origin: limits.origin },
  );
}

/**
 * Reads a streamed completion (E80–E82): the deltas of one network read go out as one piece, the
 * text and the bytes are capped, and the stream ends at `[DONE]` without waiting for the server
 * to close it.
 */
export async function readStream(
  response: Response,
  controller: AbortController,
  watch: StallWatch,
  limits: ReplyLimits,
  onDelta: (text: string) => void,
): Promise<CompletionResult> {
  const signal = controller.signal;
  const reader = response.body?.getReader();
  if (!reader) throw new AppError('endpoint_failed', 'The model server sent no stream.');
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let chars = 0;
  let bytes = 0;
  let finish: string | null = null;
  let done = false;
  let usage: Usage | undefined;
  let serverError: string | null = null;
  let batch: string[] = [];
  const parser = new SseParser((data) => {
    if (data.trim() === '[DONE]') {
      done = true;
      return;
    }
    let chunk: StreamChunk;
    try {
      chunk = JSON.parse(data) as StreamChunk;
    } catch {
      return;
    }
    if (chunk.error) {
      serverError =
        typeof chunk.error === 'string' ? chunk.error : (chunk.error.message ?? 'unknown error');
      return;
    }
    const choice = chunk.choices?.[0];
    const piece = choice?.delta?.content;
    if (typeof piece === 'string' && piece.length > 0) {
      chars += piece.length;
      if (chars > limits.chars) {
        throw tooLong(limits, `more than ${limits.chars.toLocaleString('en')} characters`);
      }
      parts.push(piece);
      batch.push(piece);
    }
    if (choice?.finish_reason) finish = choice.finish_reason;
    if (chunk.usage) usage = chunk.usage;
    if (chunk.timings) usage = { ...usage, timings: chunk.timings };
  }, limits.bytes);
  const flush = (): void => {
    if (batch.length === 0) return;
    const text = batch.join('');
    batch = [];
    onDelta(text);
  };
  const stopped = () => new AppError('cancelled', 'The generation was stopped.');
  try {
    while (!done) {
      const { value, done: ended } = await reader.read();
      if (ended) break;
      watch.arm();
      bytes += value.byteLength;
      if (bytes > limits.bytes) {
        throw tooLong(limits, `more than ${limits.bytes.toLocaleString('en')} bytes`);
      }
      parser.push(decoder.decode(value, { stream: true }));
      flush();
      if (serverError) break;
    }
    if (!done) {
      parser.push(decoder.decode());
      parser.end();
      flush();
    }
  } catch (error) {
    if (error instanceof AppError && error.code === 'reply_too_long') {
      controller.abort();
      throw error;
    }
    if (signal.aborted) throw stopped();
    throw new AppError(
      'endpoint_stream_cut',
      `The model server stopped in the middle of the reply (${chars} characters in). Nothing was saved from it; retry when the server is back.`,
      { cause: String(error) },
    );
  } finally {
    // Whatever the server still sends after `[DONE]`, an error or the cap is not read.
    if (done || serverError || signal.aborted) reader.cancel().catch(() => undefined);
    reader.releaseLock?.();
  }
  if (signal.aborted) throw stopped();
  if (serverError) {
    throw new AppError(
      'endpoint_failed',
      `The model server failed mid-reply: “${cleanText(String(serverError), 300)}”`,
    );
  }
  if (!finish && !done) {
    throw new AppError(
      'endpoint_stream_cut',
      `The model server ended the reply without finishing it (${chars} characters in). Nothing was saved from it; retry when the server is back.`,
    );
  }
  return result(parts.join(''), finish, usage);
}

interface Usage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number };
  /**
   * llama.cpp server's own counters (`cache_n`: prompt tokens reused; `predicted_n`: tokens
   * generated — a streamed reply has no `usage` unless asked for, but has these).
   */
  timings?: { cache_n?: number; prompt_n?: number; predicted_n?: number };
}

interface StreamChunk {
  choices?: { delta?: { content?: string | null }; finish_reason?: string | null }[];
  usage?: Usage;
  timings?: Usage['timings'];
  error?: string | { message?: string };
}

function result(text: string, finish: string | null, usage: Usage | undefined): CompletionResult {
  const cached =
    positive(usage?.prompt_tokens_details?.cached_tokens) ?? positive(usage?.timings?.cache_n);
  const prompt = positive(usage?.prompt_tokens);
  // The reply's speed under it (U328) needs the tokens generated.
  const completion = positive(usage?.completion_tokens) ?? positive(usage?.timings?.predicted_n);
  return {
    text,
    finishReason: finish === 'length' ? 'length' : 'stop',
    ...(prompt ? { promptTokens: prompt } : {}),
    ...(completion ? { completionTokens: completion } : {}),
    ...(cached ? { cachedTokens: cached } : {}),
  };
}

interface WholeBody {
  choices?: { message?: { content?: string | null }; finish_reason?: string | null }[];
  usage?: Usage;
  timings?: Usage['timings'];
}

export async function readWhole(
  response: Response,
  controller: AbortController,
  watch: StallWatch,
  limits: ReplyLimits,
): Promise<CompletionResult> {
  let text: string | null;
  try {
    text = await readCapped(response, limits.bytes, () => watch.arm());
  } catch (error) {
    if (controller.signal.aborted) throw new AppError('cancelled', 'The generation was stopped.');
    throw new AppError(
      'endpoint_stream_cut',
      'The model server stopped in the middle of the reply.',
      {
        cause: String(error),
      },
    );
  }
  if (text === null) throw tooLong(limits, `more than ${limits.bytes.toLocaleString('en')} bytes`);
  let body: WholeBody | null;
  try {
    body = JSON.parse(text) as WholeBody | null;
  } catch {
    body = null;
  }
  const choice = body?.choices?.[0];
  if (!choice) throw new AppError('endpoint_failed', 'The model server sent no reply.');
  const content = choice.message?.content ?? '';
  if (content.length > limits.chars) {
    throw tooLong(limits, `more than ${limits.chars.toLocaleString('en')} characters`);
  }
  return result(content, choice.finish_reason ?? 'stop', {
    ...body?.usage,
    ...(body?.timings ? { timings: body.timings } : {}),
  });
}
