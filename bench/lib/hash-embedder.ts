import type { Embedder } from '../../src/core/ports/embedder';

/**
 * A deterministic "embedding" from an FNV-style hash of the text (every `stride`-th character):
 * fast, so a benchmark times Loci's own work and not a model's.
 */
export function hashEmbedder(dimension: number, modelId: string, stride = 3): Embedder {
  const embed = (text: string): Float32Array => {
    let h = 2166136261;
    for (let i = 0; i < text.length; i += stride) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
    const v = new Float32Array(dimension);
    for (let k = 0; k < dimension; k += 1) {
      h = Math.imul(h ^ (h >>> 13), 1274126177);
      v[k] = ((h >>> 8) & 0xffff) / 0xffff - 0.5;
    }
    return v;
  };
  return {
    modelId,
    dimension,
    embedPassages: async (texts) => texts.map(embed),
    embedQuery: async (text) => embed(text),
  };
}
