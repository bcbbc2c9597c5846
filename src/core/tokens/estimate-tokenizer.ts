import type { Tokenizer } from '../ports/tokenizer';
import type { Tokens } from '../units';

/**
 * A conservative token estimator for when no model tokenizer is loaded yet. It over-counts on
 * purpose: BPE tokenizers of the small chat models average ~4 chars/token on English prose and
 * ~1–1.5 tokens per Han character, so counting 1 token per 3 non-Han chars plus 1.5 per Han
 * char, and a 10 % margin on top, keeps a plan made with it inside the real window.
 */
export const ESTIMATE_MARGIN = 1.1;
/** Role markers and separators of a chat template, per message (Llama 3 uses 4–5, Qwen 3–5). */
export const ESTIMATE_MESSAGE_OVERHEAD: Tokens = 6;

const HAN = /\p{Script=Han}/u;

export function estimateTokens(text: string): Tokens {
  let han = 0;
  let other = 0;
  for (const ch of text) {
    if (HAN.test(ch)) han += 1;
    else other += 1;
  }
  return Math.ceil((han * 1.5 + other / 3) * ESTIMATE_MARGIN);
}

export function createEstimateTokenizer(): Tokenizer {
  return {
    name: `estimate (chars/3, Han×1.5, +${Math.round((ESTIMATE_MARGIN - 1) * 100)}%)`,
    exact: false,
    count: estimateTokens,
    countMessage: (_role, content) => estimateTokens(content) + ESTIMATE_MESSAGE_OVERHEAD,
  };
}
