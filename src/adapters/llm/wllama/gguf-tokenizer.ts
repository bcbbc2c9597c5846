import { Tokenizer as HfTokenizer } from '@huggingface/tokenizers';
import type { Tokenizer } from '../../../core/ports/tokenizer';
import type { Tokens } from '../../../core/units';
import type { GgufVocab } from '../../../rpc/llm-api';

// llama.cpp's pre-tokenizer patterns (src/llama-vocab.cpp), as the models' tokenizer.json have them.
const QWEN2 =
  "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
const LLAMA3 =
  "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

function preTokenizer(pre: string): { exact: boolean; json: object } {
  const split = (pattern: string) => ({
    type: 'Split',
    pattern: { Regex: pattern },
    behavior: 'Isolated',
    invert: false,
  });
  const byteLevel = (useRegex: boolean) => ({
    type: 'ByteLevel',
    add_prefix_space: false,
    trim_offsets: true,
    use_regex: useRegex,
  });
  switch (pre) {
    case 'qwen2':
    case 'deepseek-r1-qwen':
      return {
        exact: true,
        json: { type: 'Sequence', pretokenizers: [split(QWEN2), byteLevel(false)] },
      };
    case 'llama-bpe':
    case 'llama3':
      return {
        exact: true,
        json: { type: 'Sequence', pretokenizers: [split(LLAMA3), byteLevel(false)] },
      };
    case 'smollm':
      // SmolLM2: every digit alone, then GPT-2's split.
      return {
        exact: true,
        json: {
          type: 'Sequence',
          pretokenizers: [{ type: 'Digits', individual_digits: true }, byteLevel(true)],
        },
      };
    case 'gpt-2':
    case 'gpt2':
      return { exact: true, json: byteLevel(true) };
    default:
      // Unknown to Loci: GPT-2's split is close; the counts are called estimates.
      return { exact: false, json: byteLevel(true) };
  }
}

type Template = 'chatml' | 'llama3' | 'unknown';

function templateOf(chatTemplate: string | null): Template {
  if (chatTemplate?.includes('<|im_start|>')) return 'chatml';
  if (chatTemplate?.includes('<|start_header_id|>')) return 'llama3';
  return 'unknown';
}

/**
 * An exact {@link Tokenizer} for a GGUF model, from the vocabulary and merges in its own file
 * (rule E44): a byte-level BPE `tokenizer.json` is built from them and run by
 * `@huggingface/tokenizers`, with llama.cpp's pre-tokenizer for the model's `tokenizer.ggml.pre`.
 * Template overheads are counted by tokenizing the template's own role header and end marker,
 * and `countGeneration` is the generation header plus BOS when the model adds one — so a plan's
 * total equals the prompt tokens llama.cpp reports for the same request.
 */
export function createGgufTokenizer(modelId: string, vocab: GgufVocab): Tokenizer {
  const vocabMap: Record<string, number> = {};
  const added: object[] = [];
  vocab.tokens.forEach((token, id) => {
    const type = vocab.types[id] ?? 1;
    if (type === 3 || type === 4) {
      added.push({
        id,
        content: token,
        single_word: false,
        lstrip: false,
        rstrip: false,
        normalized: false,
        special: type === 3,
      });
    }
    vocabMap[token] = id;
  });
  const pre = preTokenizer(vocab.pre);
  const tokenizer = new HfTokenizer(
    {
      version: '1.0',
      added_tokens: added,
      normalizer: null,
      pre_tokenizer: pre.json,
      post_processor: null,
      decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
      model: {
        type: 'BPE',
        dropout: null,
        unk_token: null,
        continuing_subword_prefix: null,
        end_of_word_suffix: null,
        fuse_unk: false,
        byte_fallback: false,
        ignore_merges: vocab.pre === 'llama-bpe' || vocab.pre === 'llama3',
        vocab: vocabMap,
        merges: vocab.merges,
      },
    },
    {},
  );
  const count = (text: string): Tokens =>
    text.length === 0 ? 0 : tokenizer.encode(text, { add_special_tokens: false }).ids.length;
  const template = templateOf(vocab.chatTemplate);
  const bos = vocab.addBos && vocab.bosId !== null ? 1 : 0;
  const overhead = new Map<string, Tokens>();
  const messageOverhead = (role: string): Tokens => {
    let tokens = overhead.get(role);
    if (tokens === undefined) {
      tokens =
        template === 'chatml'
          ? count(`<|im_start|>${role}\n`) + count('<|im_end|>\n')
          : template === 'llama3'
            ? count(`<|start_header_id|>${role}<|end_header_id|>\n\n`) + count('<|eot_id|>')
            : 6;
      overhead.set(role, tokens);
    }
    return tokens;
  };
  const generation =
    bos +
    (template === 'chatml'
      ? count('<|im_start|>assistant\n')
      : template === 'llama3'
        ? count('<|start_header_id|>assistant<|end_header_id|>\n\n')
        : 6);
  return {
    name: `${modelId} GGUF vocabulary`,
    exact: pre.exact && template !== 'unknown',
    count,
    countMessage: (role, content) => messageOverhead(role) + count(content),
    countGeneration: () => generation,
  };
}
