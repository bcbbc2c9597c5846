import llama3Tokenizer from 'llama3-tokenizer-js';
import type { Tokenizer } from '../../core/ports/tokenizer';
import type { Tokens } from '../../core/units';
import { MESSAGE_OVERHEAD } from './chat-template-overhead';

/**
 * The real Llama 3 BPE tokenizer (npm `llama3-tokenizer-js`, vocabulary baked in, works offline in
 * Node and browsers). Exact for Llama 3 models; the scripted engine, tests, bench and eval count
 * with it so their numbers are real token counts.
 */
export function createLlama3Tokenizer(): Tokenizer {
  const count = (text: string): Tokens =>
    text.length === 0 ? 0 : llama3Tokenizer.encode(text, { bos: false, eos: false }).length;
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
