import llama3Tokenizer from 'llama3-tokenizer-js';
import { describe, expect, it } from 'vitest';
import { MESSAGE_OVERHEAD, templateFamilyOf } from './chat-template-overhead';
import { createHfTokenizer } from './hf-tokenizer';
import { createLlama3Tokenizer } from './llama3-tokenizer';

// Llama 3's pre-tokenizer pattern, as in its published tokenizer.json.
const LLAMA3_SPLIT =
  "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

/**
 * Rebuilds a Llama 3 tokenizer.json (the file web-llm caches for Llama-3.2 models) from the
 * vocabulary and merges baked into llama3-tokenizer-js, so the tokenizer.json path can be checked
 * against a reference implementation offline.
 */
function llama3TokenizerJson(): object {
  const vocab: Record<string, number> = {};
  const added: object[] = [];
  llama3Tokenizer.vocabById.forEach((token, id) => {
    if (id >= 128000) {
      added.push({
        id,
        content: token,
        single_word: false,
        lstrip: false,
        rstrip: false,
        normalized: false,
        special: true,
      });
    } else {
      vocab[token] = id;
    }
  });
  const merges = [...llama3Tokenizer.merges.entries()]
    .sort((a, b) => a[1] - b[1])
    .map(([pair]) => pair);
  return {
    version: '1.0',
    added_tokens: added,
    normalizer: null,
    pre_tokenizer: {
      type: 'Sequence',
      pretokenizers: [
        { type: 'Split', pattern: { Regex: LLAMA3_SPLIT }, behavior: 'Isolated', invert: false },
        { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: false },
      ],
    },
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
      ignore_merges: true,
      vocab,
      merges,
    },
  };
}

const SAMPLES = [
  'Hello world',
  'Remember that my sister Ana lives in Lisbon and her birthday is on 5 March.',
  '我的生日是三月五号，我妹妹住在里斯本。',
  'Mixed 中文 and English, with numbers 1234567 and 3.14159.',
  '{"function":"send_message","arguments":{"message":"Hi!"},"request_heartbeat":false}',
  '  leading spaces\n\nand\ttabs   and trailing   ',
  "I'm sure they'll say it's fine — don't worry.",
  'Emoji 🎉🎂 and accents: café, naïve, Zürich.',
  'const x = (a, b) => a ** b; // code',
];

describe('exact token counts from a tokenizer.json', () => {
  it('E8: a Llama 3 tokenizer.json through @huggingface/tokenizers counts like the reference Llama 3 BPE', () => {
    const fromJson = createHfTokenizer('Llama-3.2-1B-Instruct-q4f16_1-MLC', llama3TokenizerJson());
    const reference = createLlama3Tokenizer();
    for (const text of SAMPLES) expect(fromJson.count(text), text).toBe(reference.count(text));
    expect(fromJson.exact).toBe(true);
    expect(fromJson.countMessage('user', 'Hello world')).toBe(reference.count('Hello world') + 5);
  });

  it('E9: template overhead per family from the model id', () => {
    expect(templateFamilyOf('Llama-3.2-3B-Instruct-q4f16_1-MLC')).toBe('llama3');
    expect(templateFamilyOf('Qwen2.5-1.5B-Instruct-q4f16_1-MLC')).toBe('chatml');
    expect(templateFamilyOf('Qwen3-4B-q4f32_1-MLC')).toBe('chatml');
    expect(templateFamilyOf('SmolLM2-360M-Instruct-q4f16_1-MLC')).toBe('chatml');
    expect(templateFamilyOf('Phi-3.5-mini-instruct-q4f16_1-MLC')).toBe('phi3');
    expect(templateFamilyOf('gemma-2-2b-it-q4f16_1-MLC')).toBe('gemma');
    expect(MESSAGE_OVERHEAD[templateFamilyOf('Mistral-7B')]).toBe(6);
  });
});
