#!/usr/bin/env node
/**
 * Writes the tiny GGUF chat model the tests run real llama.cpp on (wllama in Chromium,
 * node-llama-cpp in Node): `tests/fixtures/models/loci-fixture-llama.gguf`.
 *
 * - Architecture `llama`: 4 blocks, 128-wide embeddings, 4 query heads over 2 KV heads, a
 *   256-wide SwiGLU feed-forward, RoPE, RMS norm. F16 matrices, F32 norms; about 1.6 MB.
 * - Weights: seeded normal noise (no training), so the output is random text that only the
 *   JSON-schema grammar keeps well-formed. The same seed writes the same bytes every time.
 * - Vocabulary: byte-level BPE (`tokenizer.ggml.model = gpt2`, Qwen2 pre-tokenizer): all 256
 *   bytes are tokens, so it can spell any JSON and any UTF-8 text; a few hundred merges learned
 *   deterministically from the corpus below make counts differ from byte counts, so token
 *   accounting is tested for real. ChatML control tokens and chat template (as Qwen2.5 uses).
 *
 * Usage: `node scripts/make-fixture-gguf.mjs [out.gguf]`. See tests/fixtures/models/README.md.
 */
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(process.argv[2] ?? `${root}/tests/fixtures/models/loci-fixture-llama.gguf`);

export const FIXTURE = {
  name: 'loci-fixture-llama',
  contextLength: 8192,
  embedding: 128,
  blocks: 4,
  heads: 4,
  kvHeads: 2,
  feedForward: 256,
  merges: 320,
  seed: 0x10c1,
  /** Standard deviation of the weight noise. */
  std: 0.08,
};

// ---------------------------------------------------------------------------------------------
// Deterministic randomness (mulberry32 + Box–Muller).

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function normalSource(seed) {
  const next = mulberry32(seed);
  return () => {
    const u = Math.max(next(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next());
  };
}

// ---------------------------------------------------------------------------------------------
// Byte-level BPE: GPT-2's byte→unicode table, the Qwen2 pre-tokenizer, and merge learning.

/** GPT-2's reversible map from bytes to printable unicode characters. */
function bytesToUnicode() {
  const printable = [];
  for (let b = 33; b <= 126; b++) printable.push(b);
  for (let b = 161; b <= 172; b++) printable.push(b);
  for (let b = 174; b <= 255; b++) printable.push(b);
  const map = new Map();
  let extra = 0;
  for (let b = 0; b < 256; b++) {
    map.set(b, String.fromCodePoint(printable.includes(b) ? b : 256 + extra++));
  }
  return map;
}

// Qwen2's split pattern (llama.cpp pre-tokenizer `qwen2`), with the case-insensitive
// contractions written out because JavaScript has no inline `(?i:…)`.
export const QWEN2_SPLIT =
  /(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+/gu;

// What the merges are learned from: the step format, tool names, memory words and everyday
// English, so common prompt words become single tokens (role names must: see the check below).
const CORPUS = [
  '{"thinking": "The user said hello.", "function": "send_message", "arguments": {"message": "Hello! How are you today?"}, "request_heartbeat": false}',
  '{"thinking": "Save the fact.", "function": "core_memory_append", "arguments": {"label": "human", "content": "Lives in Lisbon."}, "request_heartbeat": true}',
  '{"thinking": "Look it up.", "function": "conversation_search", "arguments": {"query": "birthday", "page": 0}, "request_heartbeat": true}',
  '{"function": "archival_memory_insert", "arguments": {"content": "Sam likes hiking."}}',
  '{"function": "archival_memory_search", "arguments": {"query": "hiking", "page": 0}}',
  '{"function": "core_memory_replace", "arguments": {"label": "persona", "old": "x", "new": "y"}}',
  '{"function": "conversation_search_date", "arguments": {"start_date": "2026-01-01", "end_date": "2026-02-01"}}',
  'system\nuser\nassistant\ntool\nsystem\nuser\nassistant\n',
  'You are Loci, a private companion with memory. Core memory: persona human. Summary of earlier conversation.',
  'Relevant memories (retrieved automatically): the user has a sister who lives in Lisbon.',
  'Tools: function(arguments): what it does. Reply with exactly one JSON object.',
  'I like the mountains and the sea. What did I say about my sister and her birthday?',
  'Remember that my name is Sam, I work as a nurse and I love green tea in the morning.',
  'The quick brown fox jumps over the lazy dog. It was a good day for a walk in the park.',
];

function learnMerges(byteChar, count) {
  const words = new Map();
  for (let r = 0; r < 6; r++) {
    for (const line of CORPUS) {
      for (const [piece] of line.matchAll(QWEN2_SPLIT)) {
        const symbols = [...new TextEncoder().encode(piece)].map((b) => byteChar.get(b));
        const key = symbols.join('\u0000');
        words.set(key, { symbols, n: (words.get(key)?.n ?? 0) + 1 });
      }
    }
  }
  const merges = [];
  for (let m = 0; m < count; m++) {
    const pairs = new Map();
    for (const { symbols, n } of words.values()) {
      for (let i = 0; i + 1 < symbols.length; i++) {
        const pair = `${symbols[i]} ${symbols[i + 1]}`;
        pairs.set(pair, (pairs.get(pair) ?? 0) + n);
      }
    }
    let best = null;
    for (const [pair, n] of pairs) {
      // Ties break by the pair's text, so the result never depends on Map order.
      if (!best || n > best.n || (n === best.n && pair < best.pair)) best = { pair, n };
    }
    if (!best || best.n < 2) break;
    merges.push(best.pair);
    const [left, right] = best.pair.split(' ');
    for (const word of words.values()) {
      const merged = [];
      for (let i = 0; i < word.symbols.length; i++) {
        if (word.symbols[i] === left && word.symbols[i + 1] === right) {
          merged.push(left + right);
          i += 1;
        } else merged.push(word.symbols[i]);
      }
      word.symbols = merged;
    }
  }
  return merges;
}

// ChatML, as Qwen2.5 and SmolLM2 write it.
export const CHAT_TEMPLATE =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

export function buildVocabulary() {
  const byteChar = bytesToUnicode();
  const tokens = [];
  for (let b = 0; b < 256; b++) tokens.push(byteChar.get(b));
  const merges = learnMerges(byteChar, FIXTURE.merges);
  for (const merge of merges) tokens.push(merge.replace(' ', ''));
  const types = tokens.map(() => 1); // normal
  const special = ['<|endoftext|>', '<|im_start|>', '<|im_end|>'];
  for (const token of special) {
    tokens.push(token);
    types.push(3); // control
  }
  const id = (token) => tokens.indexOf(token);
  for (const role of ['system', 'user', 'assistant']) {
    if (id(role) < 0) throw new Error(`the merges must make "${role}" one token`);
  }
  return {
    tokens,
    types,
    merges,
    endOfText: id('<|endoftext|>'),
    imStart: id('<|im_start|>'),
    imEnd: id('<|im_end|>'),
  };
}

// ---------------------------------------------------------------------------------------------
// GGUF v3 writer (little-endian): header, metadata key/values, tensor infos, aligned data.

export const ALIGNMENT = 32;
export const T = { UINT32: 4, INT32: 5, FLOAT32: 6, BOOL: 7, STRING: 8, ARRAY: 9, UINT64: 10 };
const GGML_F32 = 0;
const GGML_F16 = 1;

export class Writer {
  chunks = [];
  length = 0;
  push(bytes) {
    this.chunks.push(bytes);
    this.length += bytes.length;
  }
  u32(v) {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    this.push(b);
  }
  i32(v) {
    const b = Buffer.alloc(4);
    b.writeInt32LE(v);
    this.push(b);
  }
  u64(v) {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(v));
    this.push(b);
  }
  f32(v) {
    const b = Buffer.alloc(4);
    b.writeFloatLE(v);
    this.push(b);
  }
  str(s) {
    const bytes = Buffer.from(s, 'utf8');
    this.u64(bytes.length);
    this.push(bytes);
  }
  pad() {
    const rest = this.length % ALIGNMENT;
    if (rest) this.push(Buffer.alloc(ALIGNMENT - rest));
  }
}

export function writeValue(w, type, value) {
  switch (type) {
    case T.UINT32:
      return w.u32(value);
    case T.INT32:
      return w.i32(value);
    case T.FLOAT32:
      return w.f32(value);
    case T.BOOL:
      return w.push(Buffer.from([value ? 1 : 0]));
    case T.STRING:
      return w.str(value);
    default:
      throw new Error(`unsupported type ${type}`);
  }
}

/** IEEE 754 half precision, round to nearest even (weights are small normals: no overflow). */
export function toHalf(value) {
  const f = new Float32Array([value]);
  const x = new Uint32Array(f.buffer)[0];
  const sign = (x >>> 16) & 0x8000;
  const exp = ((x >>> 23) & 0xff) - 127 + 15;
  let mant = x & 0x7fffff;
  if (exp <= 0) {
    if (exp < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - exp;
    let half = mant >>> shift;
    const rem = mant & ((1 << shift) - 1);
    const mid = 1 << (shift - 1);
    if (rem > mid || (rem === mid && half & 1)) half += 1;
    return sign | half;
  }
  if (exp >= 31) return sign | 0x7c00;
  let half = (exp << 10) | (mant >>> 13);
  const rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && half & 1)) half += 1;
  return sign | half;
}

/**
 * The GGUF v3 header: magic, version, counts, the metadata key/values and the tensor infos, padded
 * to the alignment. `tensors` are `{ name, dims, type, byteLength }`; their data follows the header
 * in the same order, each padded to the alignment.
 */
export function writeHeader(w, kv, tensors) {
  w.push(Buffer.from('GGUF', 'latin1'));
  w.u32(3);
  w.u64(tensors.length);
  w.u64(kv.length);
  for (const [key, type, value] of kv) {
    w.str(key);
    w.u32(type);
    if (type === T.ARRAY) {
      const [elementType, items] = value;
      w.u32(elementType);
      w.u64(items.length);
      for (const item of items) writeValue(w, elementType, item);
    } else writeValue(w, type, value);
  }
  let offset = 0;
  for (const t of tensors) {
    w.str(t.name);
    w.u32(t.dims.length);
    for (const d of t.dims) w.u64(d);
    w.u32(t.type);
    w.u64(offset);
    offset += Math.ceil(t.byteLength / ALIGNMENT) * ALIGNMENT;
  }
  w.pad();
}

/** The tokenizer's metadata: byte-level BPE with the Qwen2 pre-tokenizer, ChatML control tokens. */
export function tokenizerMetadata(vocab) {
  return [
    ['tokenizer.ggml.model', T.STRING, 'gpt2'],
    ['tokenizer.ggml.pre', T.STRING, 'qwen2'],
    ['tokenizer.ggml.tokens', T.ARRAY, [T.STRING, vocab.tokens]],
    ['tokenizer.ggml.token_type', T.ARRAY, [T.INT32, vocab.types]],
    ['tokenizer.ggml.merges', T.ARRAY, [T.STRING, vocab.merges]],
    ['tokenizer.ggml.bos_token_id', T.UINT32, vocab.endOfText],
    ['tokenizer.ggml.eos_token_id', T.UINT32, vocab.imEnd],
    ['tokenizer.ggml.padding_token_id', T.UINT32, vocab.endOfText],
    ['tokenizer.ggml.add_bos_token', T.BOOL, false],
    ['tokenizer.chat_template', T.STRING, CHAT_TEMPLATE],
  ];
}

export function buildGguf() {
  const f = FIXTURE;
  const vocab = buildVocabulary();
  const nVocab = vocab.tokens.length;
  const headDim = f.embedding / f.heads;
  const kvWidth = headDim * f.kvHeads;
  const normal = normalSource(f.seed);

  /** name, dims (ggml order: ne0 first, the contiguous one), type, data */
  const tensors = [];
  const matrix = (name, ne0, ne1) => {
    const data = Buffer.alloc(ne0 * ne1 * 2);
    for (let i = 0; i < ne0 * ne1; i++) data.writeUInt16LE(toHalf(normal() * f.std), i * 2);
    tensors.push({ name, dims: [ne0, ne1], type: GGML_F16, data, byteLength: data.length });
  };
  const norm = (name) => {
    const data = Buffer.alloc(f.embedding * 4);
    for (let i = 0; i < f.embedding; i++) data.writeFloatLE(1, i * 4);
    tensors.push({ name, dims: [f.embedding], type: GGML_F32, data, byteLength: data.length });
  };
  matrix('token_embd.weight', f.embedding, nVocab);
  for (let b = 0; b < f.blocks; b++) {
    norm(`blk.${b}.attn_norm.weight`);
    matrix(`blk.${b}.attn_q.weight`, f.embedding, f.embedding);
    matrix(`blk.${b}.attn_k.weight`, f.embedding, kvWidth);
    matrix(`blk.${b}.attn_v.weight`, f.embedding, kvWidth);
    matrix(`blk.${b}.attn_output.weight`, f.embedding, f.embedding);
    norm(`blk.${b}.ffn_norm.weight`);
    matrix(`blk.${b}.ffn_gate.weight`, f.embedding, f.feedForward);
    matrix(`blk.${b}.ffn_up.weight`, f.embedding, f.feedForward);
    matrix(`blk.${b}.ffn_down.weight`, f.feedForward, f.embedding);
  }
  norm('output_norm.weight');
  matrix('output.weight', f.embedding, nVocab);

  const kv = [
    ['general.architecture', T.STRING, 'llama'],
    ['general.name', T.STRING, f.name],
    ['general.alignment', T.UINT32, ALIGNMENT],
    ['general.file_type', T.UINT32, 1], // mostly F16
    ['llama.context_length', T.UINT32, f.contextLength],
    ['llama.embedding_length', T.UINT32, f.embedding],
    ['llama.block_count', T.UINT32, f.blocks],
    ['llama.feed_forward_length', T.UINT32, f.feedForward],
    ['llama.attention.head_count', T.UINT32, f.heads],
    ['llama.attention.head_count_kv', T.UINT32, f.kvHeads],
    ['llama.attention.layer_norm_rms_epsilon', T.FLOAT32, 1e-5],
    ['llama.rope.freq_base', T.FLOAT32, 10000],
    ['llama.rope.dimension_count', T.UINT32, headDim],
    ['llama.vocab_size', T.UINT32, nVocab],
    ...tokenizerMetadata(vocab),
  ];

  const w = new Writer();
  writeHeader(w, kv, tensors);
  for (const t of tensors) {
    w.push(t.data);
    w.pad();
  }
  return Buffer.concat(w.chunks);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const bytes = buildGguf();
  writeFileSync(out, bytes);
  console.log(`wrote ${out} (${bytes.length} bytes)`);
}
