import llama3Tokenizer from 'llama3-tokenizer-js';
import type { Tokenizer } from '../../core/ports/tokenizer';
import type { Tokens } from '../../core/units';
import { MESSAGE_OVERHEAD } from './chat-template-overhead';

/**
 * Llama 3's pre-tokenizer split (its `tokenizer.json` pattern; JavaScript has no `(?i:…)`, so the
 * contractions spell out both cases). BPE merges never cross these pieces, so a text's count is
 * the sum of its pieces' counts.
 */
const PRETOKEN =
  /'(?:[sS]|[tT]|[rR][eE]|[vV][eE]|[mM]|[lL][lL]|[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+/gu;
/** Text that may hold a special token (`<|eot_id|>`, …): counted by the library as a whole. */
const SPECIAL = /<\|/;
/** Pieces remembered before the memo starts over (a few MB at most). */
const MEMO_PIECES = 200_000;

/**
 * The real Llama 3 BPE tokenizer (npm `llama3-tokenizer-js`, vocabulary baked in, works offline in
 * Node and browsers). Exact for Llama 3 models; the scripted engine, tests, bench and eval count
 * with it so their numbers are real token counts. Counting remembers each pre-token's count
 * (ADR 0101): planning a turn re-counts mostly the same words, and the library's BPE of a word
 * costs far more than a map lookup.
 */
export function createLlama3Tokenizer(): Tokenizer {
  const memo = new Map<string, number>();
  const encode = (text: string): number =>
    llama3Tokenizer.encode(text, { bos: false, eos: false }).length;
  const count = (text: string): Tokens => {
    if (text.length === 0) return 0;
    if (SPECIAL.test(text)) return encode(text);
    let sum = 0;
    for (const [piece] of text.matchAll(PRETOKEN)) {
      let n = memo.get(piece);
      if (n === undefined) {
        if (memo.size >= MEMO_PIECES) memo.clear();
        n = encode(piece);
        memo.set(piece, n);
      }
      sum += n;
    }
    return sum;
  };
  return {
    name: 'llama3 (llama3-tokenizer-js)',
    exact: true,
    count,
    countMessage: (_role, content) => count(content) + MESSAGE_OVERHEAD.llama3,
  };
}

/** Token ids of `text` under Llama 3 (no BOS/EOS), for streaming token by token. */
export function llama3Encode(text: string): number[] {
  return llama3Tokenizer.encode(text, { bos: false, eos: false });
}

/** Decodes Llama 3 token ids back to text. */
export function llama3Decode(ids: number[]): string {
  return llama3Tokenizer.decode(ids);
}
