import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readGgufVocab } from './gguf-vocab';
import { createGgufTokenizer } from './gguf-tokenizer';

const fixture = () => new Blob([readFileSync('tests/fixtures/models/loci-fixture-llama.gguf')]);

describe('GGUF vocabulary and tokenizer (E44)', () => {
  it('E44: reads the vocabulary from the head of the GGUF file', async () => {
    const vocab = await readGgufVocab(fixture());
    expect(vocab.model).toBe('gpt2');
    expect(vocab.pre).toBe('qwen2');
    expect(vocab.tokens.length).toBe(579);
    expect(vocab.merges.length).toBe(320);
    expect(vocab.chatTemplate).toContain('<|im_start|>');
    expect(vocab.addBos).toBe(false);
  });

  it('E44: counts as llama.cpp does for the fixture (counts measured with node-llama-cpp 3.21.1)', async () => {
    const tokenizer = createGgufTokenizer('fixture', await readGgufVocab(fixture()));
    expect(tokenizer.exact).toBe(true);
    // llama.cpp's own tokenize() of these strings (tests/fixtures/models/README.md).
    expect(tokenizer.count('system')).toBe(1);
    expect(tokenizer.count('assistant')).toBe(1);
    expect(tokenizer.count('{"function": "send_message"}')).toBe(7);
    expect(tokenizer.count('Hello — 你好 🎉')).toBe(17);
    expect(tokenizer.count('<|im_start|>user\nhi<|im_end|>\n')).toBe(7);
    // ChatML: <|im_start|> user \n … <|im_end|> \n, and the generation header <|im_start|> assistant \n.
    expect(tokenizer.countMessage('user', 'hi')).toBe(7);
    expect(tokenizer.countGeneration?.()).toBe(3);
  });

  it('E44: a file that is not GGUF is a clear load error', async () => {
    await expect(readGgufVocab(new Blob([new Uint8Array(64)]))).rejects.toMatchObject({
      code: 'model_load_failed',
    });
  });
});
