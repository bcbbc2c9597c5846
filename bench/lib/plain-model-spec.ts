import type { EmbedModelSpec } from '../../src/adapters/embed/embed-models';

/**
 * A model spec with no prefixes and mean pooling, for a model the registry does not know (a
 * local folder in the eval, the hash "embedding" in the benchmark).
 */
export function plainModelSpec(id: string, dimension: number, languages: string): EmbedModelSpec {
  return {
    id,
    label: id,
    dimension,
    pooling: 'mean',
    normalize: true,
    queryPrefix: '',
    passagePrefix: '',
    downloadBytes: 0,
    languages,
    dtype: { wasm: 'fp32', webgpu: 'fp32' },
  };
}
