import type { EmbedModelSpec } from '../../rpc/embed-types';

/** How an embedding model is run: its pooling, prefixes and size (rule E20); defined in rpc. */
export type { EmbedModelSpec };

/** English-first default (ADR 0023): strong retrieval for its size, 34 MB. */
export const BGE_SMALL_EN: EmbedModelSpec = {
  id: 'Xenova/bge-small-en-v1.5',
  label: 'BGE small (English)',
  dimension: 384,
  pooling: 'cls',
  normalize: true,
  // bge v1.5 asks for this instruction on short queries, none on passages (model card).
  queryPrefix: 'Represent this sentence for searching relevant passages: ',
  passagePrefix: '',
  downloadBytes: 34e6,
  languages: 'English',
  dtype: { wasm: 'q8', webgpu: 'fp32' },
};

/** The multilingual option: covers Chinese and ~100 languages, 118 MB. */
export const MULTILINGUAL_E5_SMALL: EmbedModelSpec = {
  id: 'Xenova/multilingual-e5-small',
  label: 'Multilingual E5 small (Chinese, English and more)',
  dimension: 384,
  pooling: 'mean',
  normalize: true,
  queryPrefix: 'query: ',
  passagePrefix: 'passage: ',
  downloadBytes: 118e6,
  languages: 'Chinese, English and about 100 more',
  dtype: { wasm: 'q8', webgpu: 'fp32' },
};

/** The smallest choice: fast and tiny, English only, weaker retrieval than BGE. */
export const MINILM_L6: EmbedModelSpec = {
  id: 'Xenova/all-MiniLM-L6-v2',
  label: 'MiniLM L6 (English, smallest)',
  dimension: 384,
  pooling: 'mean',
  normalize: true,
  queryPrefix: '',
  passagePrefix: '',
  downloadBytes: 23e6,
  languages: 'English',
  dtype: { wasm: 'q8', webgpu: 'fp32' },
};

/** The generated test model (tests/fixtures/models/loci-fixture-embed): 32-d topic clusters. */
export const FIXTURE_EMBED: EmbedModelSpec = {
  id: 'loci-fixture-embed',
  label: 'Loci fixture (tests only)',
  dimension: 32,
  pooling: 'mean',
  normalize: true,
  queryPrefix: '',
  passagePrefix: '',
  downloadBytes: 70e3,
  languages: 'a few hundred English words and Chinese characters',
  dtype: { wasm: 'fp32', webgpu: 'fp32' },
  local: true,
};

/** What Settings offers; the fixture only in the e2e build (a production user cannot pick it). */
export const EMBED_MODELS: readonly EmbedModelSpec[] = [
  BGE_SMALL_EN,
  MULTILINGUAL_E5_SMALL,
  MINILM_L6,
  // `typeof`: outside a Vite build (Node scripts such as eval:memory) the constant is not defined.
  ...(typeof __LOCI_E2E__ !== 'undefined' && __LOCI_E2E__ ? [FIXTURE_EMBED] : []),
];

/** The registry entry for an id, or undefined. */
export function findEmbedModel(id: string): EmbedModelSpec | undefined {
  return EMBED_MODELS.find((m) => m.id === id);
}

/**
 * The default for a user: the multilingual model when the browser's languages include Chinese,
 * Japanese or Korean (the English model cannot embed Han text meaningfully), BGE otherwise.
 */
export function defaultEmbedModel(languages: readonly string[]): EmbedModelSpec {
  return languages.some((l) => /^(zh|ja|ko)\b/i.test(l)) ? MULTILINGUAL_E5_SMALL : BGE_SMALL_EN;
}
