import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { gguf } from '@huggingface/gguf';
import { describe, expect, it } from 'vitest';
import { buildGguf, FIXTURE } from '../../scripts/make-fixture-gguf.mjs';

const FILE = resolve('tests/fixtures/models/loci-fixture-llama.gguf');

/** GPT-2's byte→character table, written independently of the generator. */
function byteChars(): string[] {
  const direct = (b: number) => (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || b >= 174;
  let extra = 0;
  return Array.from({ length: 256 }, (_, b) => String.fromCodePoint(direct(b) ? b : 256 + extra++));
}

describe('the tiny GGUF chat model fixture (E40)', () => {
  it('E40: is read back by an independent GGUF parser as a llama model with a byte-level vocabulary', async () => {
    const { metadata, tensorInfos } = await gguf(FILE, { allowLocalFile: true });
    const meta = metadata as unknown as Record<string, unknown>;
    expect(meta['general.architecture']).toBe('llama');
    expect(Number(meta['llama.block_count'])).toBe(FIXTURE.blocks);
    expect(Number(meta['llama.embedding_length'])).toBe(FIXTURE.embedding);
    expect(Number(meta['llama.context_length'])).toBe(FIXTURE.contextLength);
    expect(meta['tokenizer.ggml.model']).toBe('gpt2');
    expect(meta['tokenizer.ggml.pre']).toBe('qwen2');

    const tokens = meta['tokenizer.ggml.tokens'] as string[];
    const types = meta['tokenizer.ggml.token_type'] as number[];
    const merges = meta['tokenizer.ggml.merges'] as string[];
    // Every byte is a token, so any JSON (any UTF-8 text) can be spelled.
    for (const char of byteChars()) expect(tokens).toContain(char);
    expect(merges.length).toBeGreaterThan(200);
    // Each merge joins two tokens into a third one the vocabulary has.
    for (const merge of merges) {
      const [left, right] = merge.split(' ');
      expect(tokens).toContain(`${left}${right}`);
    }
    const imEnd = tokens.indexOf('<|im_end|>');
    expect(Number(meta['tokenizer.ggml.eos_token_id'])).toBe(imEnd);
    expect(types[imEnd]).toBe(3);
    expect(types[tokens.indexOf('<|im_start|>')]).toBe(3);
    expect(String(meta['tokenizer.chat_template'])).toContain('<|im_start|>');
    // Role names are one token each, as in Qwen2.5's vocabulary (template overhead is exact).
    for (const role of ['system', 'user', 'assistant']) expect(tokens).toContain(role);

    const names = tensorInfos.map((t) => t.name);
    expect(names).toContain('token_embd.weight');
    expect(names).toContain('output.weight');
    expect(names).toContain(`blk.${FIXTURE.blocks - 1}.ffn_down.weight`);
    const embd = tensorInfos.find((t) => t.name === 'token_embd.weight');
    expect(embd?.shape.map(Number)).toEqual([FIXTURE.embedding, tokens.length]);
  });

  it('E40: the committed file is what the seeded generator writes, and stays a few MB', () => {
    const committed = readFileSync(FILE);
    expect(Buffer.compare(buildGguf() as Buffer, committed)).toBe(0);
    expect(statSync(FILE).size).toBeLessThan(4 * 1024 * 1024);
  });
});
