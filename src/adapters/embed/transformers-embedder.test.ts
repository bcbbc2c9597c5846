import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EmbedProgress } from '../../core/ports/embedder';
import { createHfTokenizer } from '../tokenizer/hf-tokenizer';
import { FIXTURE_EMBED, defaultEmbedModel } from './embed-models';
import { TransformersEmbedder, configureTransformersEnv } from './transformers-embedder';
import tokenizerJson from '../../../tests/fixtures/models/loci-fixture-embed/tokenizer.json';

const fixtures = fileURLToPath(new URL('../../../tests/fixtures/models/', import.meta.url));
const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);

describe('TransformersEmbedder with the fixture model (real transformers.js, onnxruntime-node)', () => {
  let embedder: TransformersEmbedder;
  const progress: EmbedProgress[] = [];

  beforeAll(async () => {
    configureTransformersEnv({ allowRemoteModels: false, localModelPath: fixtures });
    embedder = await TransformersEmbedder.create({
      model: FIXTURE_EMBED,
      device: 'cpu',
      batchSize: 2,
      onProgress: (p) => progress.push(p),
    });
  });

  it('E22: loads from the local path with progress and reports its id and dimension', () => {
    expect(embedder.modelId).toBe('loci-fixture-embed');
    expect(embedder.dimension).toBe(32);
    expect(progress.some((p) => p.type === 'loading')).toBe(true);
    expect(progress.at(-1)).toEqual({
      type: 'ready',
      modelId: 'loci-fixture-embed',
      device: 'cpu',
    });
  });

  it('E22: related texts score closer than unrelated ones, in English and Chinese', async () => {
    const [sister, brother, pizza, birthday, zhBirthday, zhFood] = await embedder.embedPassages([
      'My sister adores her daughter',
      'his brother and their mother',
      'pizza and pasta for dinner',
      'her birthday party is in march',
      '我的生日在三月',
      '我们吃饭吃面',
    ]);
    expect(dot(sister!, brother!)).toBeGreaterThan(dot(sister!, pizza!) + 0.3);
    expect(dot(birthday!, zhBirthday!)).toBeGreaterThan(dot(birthday!, pizza!));
    expect(dot(zhFood!, pizza!)).toBeGreaterThan(dot(zhFood!, sister!));
    const q = await embedder.embedQuery('what did we eat for lunch');
    expect(dot(q, pizza!)).toBeGreaterThan(dot(q, birthday!));
  });

  it('E22: vectors are unit length, batched with progress, and never NaN for unknown words', async () => {
    const seen: EmbedProgress[] = [];
    const vectors = await embedder.embedPassages(['dog', 'cats', 'zzqx blorp', '', 'music'], (p) =>
      seen.push(p),
    );
    expect(vectors).toHaveLength(5);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.every(Number.isFinite)).toBe(true);
      expect(Math.sqrt(dot(v, v))).toBeCloseTo(1, 4);
    }
    expect(seen).toEqual([
      { type: 'embedding', done: 2, total: 5 },
      { type: 'embedding', done: 4, total: 5 },
      { type: 'embedding', done: 5, total: 5 },
    ]);
    const again = await embedder.embedPassages(['dog']);
    expect([...again[0]!]).toEqual([...vectors[0]!]);
  });
});

describe('embedding model registry and tokenizer.json counting', () => {
  it('E23: Chinese-language browsers default to the multilingual model, others to BGE', () => {
    expect(defaultEmbedModel(['zh-CN', 'en']).id).toBe('Xenova/multilingual-e5-small');
    expect(defaultEmbedModel(['en-GB']).id).toBe('Xenova/bge-small-en-v1.5');
  });

  it('E8: a tokenizer.json counts content tokens exactly, without special tokens', () => {
    const t = createHfTokenizer('loci-fixture-embed', tokenizerJson);
    expect(t.exact).toBe(true);
    expect(t.count('my sisters')).toBe(3); // my → [UNK], sister, ##s
    expect(t.count('生日')).toBe(2);
    expect(t.countMessage('user', 'sister')).toBe(1 + 6);
  });
});
