#!/usr/bin/env node
/**
 * Writes GGUF chat models with the exact shape of the CPU catalog's models — the same
 * architecture, block count, widths, heads, feed-forward, vocabulary size and context length,
 * quantized as the downloaded files are — filled with seeded noise. A model's compute does not
 * depend on its weights' values, so such a file times like the real one (issue 36); nothing here
 * can download the real weights.
 *
 * - Shapes: `qwen2.5-0.5b` (the `qwen2` architecture: Q/K/V biases, tied embeddings) and
 *   `llama-3.2-1b` (`llama`, tied embeddings). Values from the models' config files.
 * - Quantizations: `q4_k_m` (llama.cpp's per-tensor rule for Q4_K_M, fallbacks for rows that are
 *   not a multiple of 256 included — so the 0.5B file is ~0.49 GB like the real one), `q4_0`,
 *   `q8_0`. Blocks are random bytes with their scales set to small valid halves, so no value is
 *   NaN or infinite and the activations stay finite.
 * - Vocabulary: the fixture's byte-level BPE (tokenizer.ggml.model gpt2, ChatML control tokens)
 *   padded with unreachable tokens up to the real vocabulary size, so the output layer costs
 *   what it costs in the real model. Token counts of a text are the fixture tokenizer's, not the
 *   real model's.
 * - Written in seconds (a seeded xorshift over whole buffers, not a per-element Gaussian) into
 *   `.cache/shaped-models/` (outside git), and reused while the file is there.
 *
 * Usage: `node scripts/make-shaped-gguf.mjs <shape> <quant> [--out file]`; prints the path.
 * From code: `import { ensureShapedModel } from './make-shaped-gguf.mjs'`.
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  renameSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ALIGNMENT,
  T,
  Writer,
  buildVocabulary,
  toHalf,
  tokenizerMetadata,
  writeHeader,
} from './make-fixture-gguf.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const SHAPED_MODEL_DIR = resolve(root, '.cache/shaped-models');
/** Bump when the bytes a shape and quantization produce change, so cached files are rewritten. */
const GENERATOR_VERSION = 1;

export const SHAPES = {
  'qwen2.5-0.5b': {
    name: 'shaped-qwen2.5-0.5b',
    arch: 'qwen2',
    vocab: 151936,
    contextLength: 32768,
    embedding: 896,
    blocks: 24,
    heads: 14,
    kvHeads: 2,
    feedForward: 4864,
    ropeBase: 1_000_000,
    rmsEps: 1e-6,
    qkvBias: true,
  },
  'llama-3.2-1b': {
    name: 'shaped-llama-3.2-1b',
    arch: 'llama',
    vocab: 128256,
    contextLength: 131072,
    embedding: 2048,
    blocks: 16,
    heads: 32,
    kvHeads: 8,
    feedForward: 8192,
    ropeBase: 500_000,
    rmsEps: 1e-5,
    qkvBias: false,
  },
};

/** ggml type ids and block layouts: elements per block, bytes per block, where the halves are. */
const TYPES = {
  F32: { id: 0, elements: 1, bytes: 4, halves: [] },
  Q4_0: { id: 2, elements: 32, bytes: 18, halves: [0] },
  Q5_0: { id: 6, elements: 32, bytes: 22, halves: [0] },
  Q8_0: { id: 8, elements: 32, bytes: 34, halves: [0] },
  Q4_K: { id: 12, elements: 256, bytes: 144, halves: [0, 2] },
  Q6_K: { id: 14, elements: 256, bytes: 210, halves: [208] },
};

/** Each type's scale: element values come out around ±0.05 (see each format's dequantization). */
const SCALE = { Q4_0: 0.006, Q5_0: 0.003, Q8_0: 0.0004, Q4_K: 0.0002, Q6_K: 0.00001 };

/** `general.file_type` (llama_ftype) of each quantization. */
const FILE_TYPE = { q4_k_m: 15, q4_0: 2, q8_0: 7 };

/** llama.cpp's `use_more_bits`: the layers Q4_K_M gives six bits in attn_v and ffn_down. */
function useMoreBits(layer, layers) {
  return (
    layer < layers / 8 || layer >= (7 * layers) / 8 || (layer - Math.floor(layers / 8)) % 3 === 2
  );
}

/** A K-quant needs rows that are a multiple of 256; llama.cpp falls back for the others. */
function fitRow(type, rowLength) {
  if (TYPES[type].elements !== 256 || rowLength % 256 === 0) return type;
  return { Q4_K: 'Q5_0', Q6_K: 'Q8_0' }[type];
}

/** The type llama.cpp's quantizer gives `role` (tensor kind) of block `layer` under `quant`. */
function tensorType(quant, role, layer, layers, rowLength) {
  if (role === 'output') return fitRow('Q6_K', rowLength); // output, or tied token_embd
  if (quant === 'q4_0') return 'Q4_0';
  if (quant === 'q8_0') return 'Q8_0';
  const six = (role === 'attn_v' || role === 'ffn_down') && useMoreBits(layer, layers);
  return fitRow(six ? 'Q6_K' : 'Q4_K', rowLength);
}

/** xorshift128 over a whole buffer: seeded, fast enough for a gigabyte in seconds. */
function fillRandom(buffer, seed) {
  const words = new Uint32Array(buffer.buffer, buffer.byteOffset, Math.floor(buffer.length / 4));
  let x = seed >>> 0 || 1;
  let y = 362436069;
  let z = 521288629;
  let w = 88675123;
  for (let i = 0; i < words.length; i++) {
    const t = x ^ (x << 11);
    x = y;
    y = z;
    z = w;
    w = (w ^ (w >>> 19) ^ (t ^ (t >>> 8))) >>> 0;
    words[i] = w;
  }
  for (let i = words.length * 4; i < buffer.length; i++) buffer[i] = (w >>> ((i % 4) * 8)) & 0xff;
}

function hash(text) {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

function quantized(name, type, ne0, ne1, seed) {
  const layout = TYPES[type];
  const blocks = (ne0 * ne1) / layout.elements;
  const data = Buffer.alloc(blocks * layout.bytes);
  fillRandom(data, hash(name) ^ seed);
  // Halves between 0.5× and 1.5× the type's scale, picked by the block's first random byte.
  const halves = Array.from({ length: 64 }, (_, i) => toHalf(SCALE[type] * (0.5 + i / 64)));
  for (let b = 0; b < blocks; b++) {
    const at = b * layout.bytes;
    const pick = halves[data[at + layout.bytes - 1] & 63];
    for (const h of layout.halves) data.writeUInt16LE(pick, at + h);
  }
  return { name, dims: [ne0, ne1], type: layout.id, data, byteLength: data.length };
}

function filled(name, length, value) {
  const data = Buffer.alloc(length * 4);
  for (let i = 0; i < length; i++) data.writeFloatLE(value, i * 4);
  return { name, dims: [length], type: TYPES.F32.id, data, byteLength: data.length };
}

/** The fixture's tokenizer padded with unreachable printable tokens to `size` entries. */
function paddedVocabulary(size) {
  const vocab = buildVocabulary();
  const tokens = [...vocab.tokens];
  const types = [...vocab.types];
  for (let i = 0; tokens.length < size; i++) {
    tokens.push(`<unused${i.toString(36)}>`);
    types.push(1);
  }
  return { ...vocab, tokens, types };
}

/** Every tensor of `shape` under `quant`, in file order (data generated on demand). */
function tensorPlan(shape, quant, seed) {
  const s = shape;
  const headDim = s.embedding / s.heads;
  const kv = headDim * s.kvHeads;
  const plan = [];
  const matrix = (name, role, layer, ne0, ne1) => {
    const type = tensorType(quant, role, layer, s.blocks, ne0);
    const layout = TYPES[type];
    plan.push({
      name,
      dims: [ne0, ne1],
      type: layout.id,
      byteLength: ((ne0 * ne1) / layout.elements) * layout.bytes,
      make: () => quantized(name, type, ne0, ne1, seed),
    });
  };
  const vector = (name, length, value) =>
    plan.push({
      name,
      dims: [length],
      type: TYPES.F32.id,
      byteLength: length * 4,
      make: () => filled(name, length, value),
    });
  // Tied embeddings: token_embd is also the output layer, so it is quantized as one.
  matrix('token_embd.weight', 'output', 0, s.embedding, s.vocab);
  for (let b = 0; b < s.blocks; b++) {
    vector(`blk.${b}.attn_norm.weight`, s.embedding, 1);
    matrix(`blk.${b}.attn_q.weight`, 'attn_q', b, s.embedding, s.embedding);
    matrix(`blk.${b}.attn_k.weight`, 'attn_k', b, s.embedding, kv);
    matrix(`blk.${b}.attn_v.weight`, 'attn_v', b, s.embedding, kv);
    if (s.qkvBias) {
      vector(`blk.${b}.attn_q.bias`, s.embedding, 0);
      vector(`blk.${b}.attn_k.bias`, kv, 0);
      vector(`blk.${b}.attn_v.bias`, kv, 0);
    }
    matrix(`blk.${b}.attn_output.weight`, 'attn_output', b, s.embedding, s.embedding);
    vector(`blk.${b}.ffn_norm.weight`, s.embedding, 1);
    matrix(`blk.${b}.ffn_gate.weight`, 'ffn_gate', b, s.embedding, s.feedForward);
    matrix(`blk.${b}.ffn_up.weight`, 'ffn_up', b, s.embedding, s.feedForward);
    matrix(`blk.${b}.ffn_down.weight`, 'ffn_down', b, s.feedForward, s.embedding);
  }
  vector('output_norm.weight', s.embedding, 1);
  return plan;
}

function metadata(shape, quant) {
  const s = shape;
  const a = s.arch;
  const vocab = paddedVocabulary(s.vocab);
  return [
    ['general.architecture', T.STRING, a],
    ['general.name', T.STRING, `${s.name}-${quant}`],
    ['general.alignment', T.UINT32, ALIGNMENT],
    ['general.file_type', T.UINT32, FILE_TYPE[quant]],
    [`${a}.context_length`, T.UINT32, s.contextLength],
    [`${a}.embedding_length`, T.UINT32, s.embedding],
    [`${a}.block_count`, T.UINT32, s.blocks],
    [`${a}.feed_forward_length`, T.UINT32, s.feedForward],
    [`${a}.attention.head_count`, T.UINT32, s.heads],
    [`${a}.attention.head_count_kv`, T.UINT32, s.kvHeads],
    [`${a}.attention.layer_norm_rms_epsilon`, T.FLOAT32, s.rmsEps],
    [`${a}.rope.freq_base`, T.FLOAT32, s.ropeBase],
    [`${a}.rope.dimension_count`, T.UINT32, s.embedding / s.heads],
    [`${a}.vocab_size`, T.UINT32, s.vocab],
    ...tokenizerMetadata(vocab),
  ];
}

/** A shape by name (one of SHAPES), or a shape object as they are written. */
function resolveShape(shape, quant) {
  const resolved = typeof shape === 'string' ? SHAPES[shape] : shape;
  if (!resolved) throw new Error(`unknown shape ${shape}; one of ${Object.keys(SHAPES)}`);
  if (!(quant in FILE_TYPE))
    throw new Error(`unknown quantization ${quant}; one of ${Object.keys(FILE_TYPE)}`);
  return resolved;
}

function plannedHeader(shape, quant, seed) {
  const plan = tensorPlan(shape, quant, seed);
  const header = new Writer();
  writeHeader(header, metadata(shape, quant), plan);
  return { plan, header };
}

/** The file's size in bytes, without generating its data. */
export function shapedModelBytes(shape, quant) {
  const { plan, header } = plannedHeader(resolveShape(shape, quant), quant, 0);
  return plan.reduce((n, t) => n + Math.ceil(t.byteLength / ALIGNMENT) * ALIGNMENT, header.length);
}

/** Writes the file (to a temp name, renamed when complete); returns its size in bytes. */
export function writeShapedModel(shape, quant, out, seed = 0x5eed) {
  const { plan, header } = plannedHeader(resolveShape(shape, quant), quant, seed);
  mkdirSync(dirname(out), { recursive: true });
  const partial = `${out}.partial`;
  const fd = openSync(partial, 'w');
  let size = 0;
  const write = (bytes) => {
    writeSync(fd, bytes);
    size += bytes.length;
  };
  try {
    for (const chunk of header.chunks) write(chunk);
    for (const entry of plan) {
      write(entry.make().data);
      const rest = entry.byteLength % ALIGNMENT;
      if (rest) write(Buffer.alloc(ALIGNMENT - rest));
    }
  } finally {
    closeSync(fd);
  }
  renameSync(partial, out);
  return size;
}

/** The cached file for `shape` at `quant`, written first if it is not there. */
export function ensureShapedModel(shapeName, quant) {
  const out = resolve(SHAPED_MODEL_DIR, `${shapeName}-${quant}-v${GENERATOR_VERSION}.gguf`);
  if (!existsSync(out)) writeShapedModel(shapeName, quant, out);
  return { path: out, bytes: statSync(out).size };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [shapeName, quant] = process.argv.slice(2);
  const outAt = process.argv.indexOf('--out');
  const started = performance.now();
  if (outAt > 0) {
    const out = resolve(process.argv[outAt + 1]);
    const bytes = writeShapedModel(shapeName, quant, out);
    console.log(`${out} ${bytes} bytes in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } else {
    const { path, bytes } = ensureShapedModel(shapeName, quant);
    console.log(`${path} ${bytes} bytes in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
}
