import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gguf } from '@huggingface/gguf';
import { getLlama } from 'node-llama-cpp';
import { afterAll, describe, expect, it } from 'vitest';
import { CPU_MODELS } from '../../src/core/catalog/cpu-models';
import { shapedModelBytes, writeShapedModel } from '../../scripts/make-shaped-gguf.mjs';

const dir = mkdtempSync(join(tmpdir(), 'loci-shaped-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A small model of the qwen2 kind: 384-wide rows are no multiple of 256, so K-quants fall back. */
const SMALL = {
  name: 'shaped-small',
  arch: 'qwen2',
  vocab: 4096,
  contextLength: 2048,
  embedding: 384,
  blocks: 8,
  heads: 6,
  kvHeads: 2,
  feedForward: 1024,
  ropeBase: 1_000_000,
  rmsEps: 1e-6,
  qkvBias: true,
};

// ggml type ids, written independently of the generator.
const Q4_K = 12;
const Q6_K = 14;
const Q5_0 = 6;
const Q8_0 = 8;

describe('shape-true random GGUF models (issue 36)', () => {
  it('the Llama 3.2 1B shape at Q4_K_M is the size of the file the CPU catalog downloads', () => {
    const catalog = CPU_MODELS.find((m) => m.modelId.startsWith('Llama-3.2-1B'));
    const bytes = shapedModelBytes('llama-3.2-1b', 'q4_k_m');
    expect(Math.abs(bytes / (catalog?.downloadBytes ?? 0) - 1)).toBeLessThan(0.01);
    // Q8_0 spends about twice the bits of Q4_K_M.
    expect(shapedModelBytes('llama-3.2-1b', 'q8_0') / bytes).toBeGreaterThan(1.5);
  });

  it("follows llama.cpp's Q4_K_M rule: six bits for some attn_v and ffn_down, fallbacks for short rows", async () => {
    const file = join(dir, 'small-q4_k_m.gguf');
    const written = writeShapedModel(SMALL, 'q4_k_m', file);
    expect(statSync(file).size).toBe(written);
    expect(written).toBe(shapedModelBytes(SMALL, 'q4_k_m'));
    const { metadata, tensorInfos } = await gguf(file, { allowLocalFile: true });
    const meta = metadata as unknown as Record<string, unknown>;
    expect(meta['general.architecture']).toBe('qwen2');
    expect(Number(meta['qwen2.block_count'])).toBe(SMALL.blocks);
    expect((meta['tokenizer.ggml.tokens'] as string[]).length).toBe(SMALL.vocab);
    const type = (name: string) => tensorInfos.find((t) => t.name === name)?.dtype;
    // ffn_down's rows are 1,024 long: K-quants; layer 0 is one of the six-bit layers, layer 1 not.
    expect(type('blk.0.ffn_down.weight')).toBe(Q6_K);
    expect(type('blk.1.ffn_down.weight')).toBe(Q4_K);
    // 384-wide rows cannot hold a 256-element super-block: Q4_K → Q5_0, Q6_K → Q8_0.
    expect(type('blk.1.attn_q.weight')).toBe(Q5_0);
    expect(type('blk.0.attn_v.weight')).toBe(Q8_0);
    // Tied embeddings are quantized as the output layer.
    expect(type('token_embd.weight')).toBe(Q8_0);
    expect(tensorInfos.some((t) => t.name === 'output.weight')).toBe(false);
  });

  it('native llama.cpp loads a written model and generates from it', async () => {
    const file = join(dir, 'small-q4_0.gguf');
    writeShapedModel(SMALL, 'q4_0', file);
    const llama = await getLlama({ gpu: false, build: 'never', progressLogs: false });
    const model = await llama.loadModel({ modelPath: file });
    try {
      expect(model.fileInfo.metadata.general.architecture).toBe('qwen2');
      const context = await model.createContext({ contextSize: 512, threads: 1 });
      const sequence = context.getSequence();
      const steps = sequence.evaluate(model.tokenize('The user has a sister in Lisbon.'), {
        temperature: 0,
      });
      const generated: number[] = [];
      for (let i = 0; i < 4; i += 1) {
        const step = await steps.next();
        if (step.done) break;
        generated.push(step.value);
      }
      expect(generated.length).toBe(4);
      for (const token of generated) expect(token).toBeLessThan(SMALL.vocab);
      await context.dispose();
    } finally {
      await model.dispose();
    }
  });
});
