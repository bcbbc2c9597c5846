/**
 * Client-side limits on a reply (E81, E82, ADR 0187): whatever an engine or a server does, a reply
 * ends. `max_tokens` is a request, which a server may ignore; these are enforced here.
 */
import type { Chars, Tokens } from '../../core/units';

/**
 * Characters of reply per requested token beyond which a reply cannot be an honest one. A valid
 * step holds 2.5 characters a token (the step schema's bound, E51) and real tokens average about
 * 4; 32 a token is beyond any tokenizer's average, so the cap never cuts a reply the loop could
 * accept.
 */
const CAP_CHARS_PER_TOKEN = 32;
/** The smallest cap, whatever `max_tokens` says (short probes such as Test connection). */
const MIN_CAP_CHARS: Chars = 65_536;
/**
 * Bytes of stream per requested token: one SSE chunk of an OpenAI-compatible server carries one
 * token in 150–400 bytes of JSON (id, model, timestamps, usage); 2 KiB leaves room for verbose ones.
 */
const STREAM_BYTES_PER_TOKEN = 2048;
const MIN_STREAM_BYTES = 4 * 1024 * 1024;

/** The longest reply text accepted for a request of `maxTokens` (E81). */
export function replyCharCap(maxTokens: Tokens): Chars {
  return Math.max(MIN_CAP_CHARS, Math.floor(maxTokens * CAP_CHARS_PER_TOKEN));
}

/**
 * The most bytes read from a model server for one request (E81): the cap on the text alone would
 * let a server stream comments, empty events or one endless line forever.
 */
export function streamByteCap(maxTokens: Tokens): number {
  return Math.max(MIN_STREAM_BYTES, Math.floor(maxTokens * STREAM_BYTES_PER_TOKEN));
}

/**
 * Seconds without a byte from a model server before a request is given up (E82). It covers the
 * wait before the first byte too, when a server reads the prompt: 120 s is a laptop CPU reading
 * 12,000–24,000 new tokens of prompt (100–200 tokens/s for a 1–3B model); a prefix-caching server
 * keeps what it read, so a Retry goes on from there. `EndpointSettings.stallSeconds` changes it.
 */
export const DEFAULT_STALL_SECONDS = 120;
