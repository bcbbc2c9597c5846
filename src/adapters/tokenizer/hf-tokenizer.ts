import { Tokenizer as HfTokenizer } from '@huggingface/tokenizers';
import type { Tokenizer } from '../../core/ports/tokenizer';
import type { Tokens } from '../../core/units';
import { MESSAGE_OVERHEAD, templateFamilyOf } from './chat-template-overhead';

/**
 * An exact tokenizer from a model's own `tokenizer.json` through `@huggingface/tokenizers`
 * (pure JS). Content is counted without special tokens; `countMessage` adds the model family's
 * chat-template overhead (see `chat-template-overhead.ts`).
 */
export function createHfTokenizer(
  modelId: string,
  tokenizerJson: object,
  tokenizerConfig: object = {},
): Tokenizer {
  const tokenizer = new HfTokenizer(tokenizerJson, tokenizerConfig);
  const overhead = MESSAGE_OVERHEAD[templateFamilyOf(modelId)];
  const count = (text: string): Tokens =>
    text.length === 0 ? 0 : tokenizer.encode(text, { add_special_tokens: false }).ids.length;
  return {
    name: `${modelId} tokenizer.json`,
    exact: true,
    count,
    countMessage: (_role, content) => count(content) + overhead,
  };
}
