import type { Tokenizer } from '../ports/tokenizer';
import type { Tokens } from '../units';

/**
 * A conservative token estimator for when no model tokenizer is loaded yet. It over-counts on
 * purpose so that a plan made with it stays inside the real window: per-character costs are set
 * at or above what the small models' BPE tokenizers (Llama 3, Qwen) spend —
 * ASCII letters ~0.3 (real English averages ~4 chars/token) but 0.9 next to a digit (hex ids and
 * UUIDs split into ~2-char pieces), digits in groups of three (Llama 3
 * and Qwen split numbers into 1–3 digit pieces), a space before a digit or punctuation 1 (it
 * does not merge), ASCII punctuation 0.5, Han characters 1.5, CJK punctuation and other non-ASCII
 * letters 1.2, characters outside the BMP (emoji) 3 — and a 10 % margin on top.
 * `tests/unit/estimate-vs-llama3.test.ts` checks it never under-counts the real Llama 3 tokenizer.
 */
export const ESTIMATE_MARGIN = 1.1;
/** Role markers and separators of a chat template, per message (Llama 3 uses 4–5, Qwen 3–5). */
export const ESTIMATE_MESSAGE_OVERHEAD: Tokens = 6;

const HAN = /\p{Script=Han}/u;
/** Below U+2E80 (the first CJK radical) no code point is Han, so the regex is skipped there. */
const FIRST_HAN = 0x2e80;

const isDigit = (code: number) => code >= 48 && code <= 57;
const isLetter = (code: number) => (code >= 65 && code <= 90) || (code >= 97 && code <= 122);

/** Estimated tokens of `text` (see the module comment for the costs). */
export function estimateTokens(text: string): Tokens {
  let cost = 0;
  let digitRun = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (isDigit(code)) {
      digitRun += 1;
      continue;
    }
    if (digitRun > 0) {
      cost += Math.ceil(digitRun / 3);
      digitRun = 0;
    }
    if (code < 128) {
      if (isLetter(code))
        cost += isDigit(text.charCodeAt(i - 1)) || isDigit(text.charCodeAt(i + 1)) ? 0.9 : 0.3;
      else if (code === 32) {
        const next = text.charCodeAt(i + 1);
        cost += isLetter(next) ? 0.3 : 1;
      } else if (code === 9 || code === 10 || code === 13) cost += 0.5;
      else cost += 0.5;
      continue;
    }
    const point = text.codePointAt(i) ?? code;
    if (point > 0xffff) {
      i += 1;
      cost += 3;
    } else if (point >= FIRST_HAN && HAN.test(String.fromCharCode(point))) cost += 1.5;
    else cost += 1.2;
  }
  if (digitRun > 0) cost += Math.ceil(digitRun / 3);
  return Math.ceil(cost * ESTIMATE_MARGIN);
}

export function createEstimateTokenizer(): Tokenizer {
  return {
    name: `estimate (conservative per-character costs, +${Math.round((ESTIMATE_MARGIN - 1) * 100)}%)`,
    exact: false,
    count: estimateTokens,
    countMessage: (_role, content) => estimateTokens(content) + ESTIMATE_MESSAGE_OVERHEAD,
  };
}
