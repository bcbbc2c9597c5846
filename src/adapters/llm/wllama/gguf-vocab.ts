import { AppError } from '../../../core/errors';
import type { GgufVocab } from '../../../rpc/llm-api';

export type { GgufVocab };

const STRING = 8;
const ARRAY = 9;
// Byte widths of the scalar GGUF value types by type id (0..12; 8 and 9 are string and array).
const WIDTH: Record<number, number> = {
  0: 1,
  1: 1,
  2: 2,
  3: 2,
  4: 4,
  5: 4,
  6: 4,
  7: 1,
  10: 8,
  11: 8,
  12: 8,
};

class OutOfData extends Error {}

class Reader {
  private offset = 0;
  private readonly view: DataView;
  private readonly decoder = new TextDecoder();
  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  private need(n: number): void {
    if (this.offset + n > this.bytes.length) throw new OutOfData();
  }
  u32(): number {
    this.need(4);
    const v = this.view.getUint32(this.offset, true);
    this.offset += 4;
    return v;
  }
  u64(): number {
    this.need(8);
    const v = Number(this.view.getBigUint64(this.offset, true));
    this.offset += 8;
    return v;
  }
  str(): string {
    const n = this.u64();
    this.need(n);
    const s = this.decoder.decode(this.bytes.subarray(this.offset, this.offset + n));
    this.offset += n;
    return s;
  }
  scalar(type: number): number | boolean {
    const width = WIDTH[type];
    if (width === undefined) throw new AppError('model_load_failed', `Unknown GGUF type ${type}.`);
    this.need(width);
    const at = this.offset;
    this.offset += width;
    switch (type) {
      case 0:
        return this.view.getUint8(at);
      case 1:
        return this.view.getInt8(at);
      case 2:
        return this.view.getUint16(at, true);
      case 3:
        return this.view.getInt16(at, true);
      case 4:
        return this.view.getUint32(at, true);
      case 5:
        return this.view.getInt32(at, true);
      case 6:
        return this.view.getFloat32(at, true);
      case 7:
        return this.view.getUint8(at) !== 0;
      case 10:
        return Number(this.view.getBigUint64(at, true));
      case 11:
        return Number(this.view.getBigInt64(at, true));
      default:
        return this.view.getFloat64(at, true);
    }
  }
  value(type: number): unknown {
    if (type === STRING) return this.str();
    if (type === ARRAY) {
      const itemType = this.u32();
      const count = this.u64();
      const items: unknown[] = new Array(count);
      for (let i = 0; i < count; i++) items[i] = this.value(itemType);
      return items;
    }
    return this.scalar(type);
  }
}

function parseMetadata(bytes: Uint8Array): Map<string, unknown> {
  const r = new Reader(bytes);
  if (r.u32() !== 0x46554747) throw new AppError('model_load_failed', 'This is not a GGUF file.');
  const version = r.u32();
  if (version < 2) throw new AppError('model_load_failed', `GGUF version ${version} is too old.`);
  r.u64(); // tensor count
  const count = r.u64();
  const metadata = new Map<string, unknown>();
  for (let i = 0; i < count; i++) {
    const key = r.str();
    metadata.set(key, r.value(r.u32()));
  }
  return metadata;
}

/**
 * Reads the vocabulary from the first file of a GGUF model (rule E44). Only the metadata at the
 * head of the file is read, growing the slice until it fits (a Qwen2.5 vocabulary is ~7 MB).
 */
export async function readGgufVocab(file: Blob): Promise<GgufVocab> {
  for (let size = 8 * 1024 * 1024; ; size *= 2) {
    const bytes = new Uint8Array(await file.slice(0, size).arrayBuffer());
    try {
      return vocabFrom(parseMetadata(bytes));
    } catch (error) {
      if (!(error instanceof OutOfData)) throw error;
      if (size >= file.size) {
        throw new AppError('model_load_failed', 'The GGUF file ends inside its metadata.');
      }
    }
  }
}

function vocabFrom(meta: Map<string, unknown>): GgufVocab {
  const tokens = meta.get('tokenizer.ggml.tokens');
  if (!Array.isArray(tokens)) {
    throw new AppError('model_load_failed', 'The GGUF file has no tokenizer vocabulary.');
  }
  const bos = meta.get('tokenizer.ggml.bos_token_id');
  const template = meta.get('tokenizer.chat_template');
  return {
    model: String(meta.get('tokenizer.ggml.model') ?? ''),
    pre: String(meta.get('tokenizer.ggml.pre') ?? 'default'),
    tokens: tokens as string[],
    types: (meta.get('tokenizer.ggml.token_type') as number[] | undefined) ?? [],
    merges: (meta.get('tokenizer.ggml.merges') as string[] | undefined) ?? [],
    bosId: typeof bos === 'number' ? bos : null,
    addBos: meta.get('tokenizer.ggml.add_bos_token') === true,
    chatTemplate: typeof template === 'string' ? template : null,
  };
}
