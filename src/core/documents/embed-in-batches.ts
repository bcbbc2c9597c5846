import { AppError } from '../errors';
import type { Embedder } from '../ports/embedder';

/** Texts per `Embedder.embedPassages` call: big enough to fill a WASM/WebGPU batch, small for progress. */
export const DEFAULT_EMBED_BATCH = 32;

/**
 * Embeds `texts` in batches, reporting `done/total` after each and checking `signal` between
 * batches. Returns null when cancelled. Throws `embedder_failed` when the embedder fails and
 * `embedding_dimension_mismatch` when a vector does not have the embedder's dimension.
 */
export async function embedInBatches(
  embedder: Embedder,
  texts: readonly string[],
  options: {
    batchSize?: number;
    signal?: AbortSignal;
    onProgress?: (done: number, total: number) => void;
    yieldToHost?: () => Promise<void>;
  } = {},
): Promise<Float32Array[] | null> {
  const batchSize = Math.max(1, options.batchSize ?? DEFAULT_EMBED_BATCH);
  const out: Float32Array[] = [];
  options.onProgress?.(0, texts.length);
  for (let at = 0; at < texts.length; at += batchSize) {
    if (options.signal?.aborted) return null;
    const batch = texts.slice(at, at + batchSize);
    let vectors: Float32Array[];
    try {
      vectors = await embedder.embedPassages(batch);
    } catch (error) {
      throw AppError.from(error, 'embedder_failed');
    }
    if (vectors.length !== batch.length) {
      throw new AppError(
        'embedder_failed',
        `The embedder returned ${vectors.length} vectors for ${batch.length} texts.`,
      );
    }
    for (const v of vectors) {
      if (v.length !== embedder.dimension) {
        throw new AppError(
          'embedding_dimension_mismatch',
          `The embedder ${embedder.modelId} returned a ${v.length}-d vector; it declares ${embedder.dimension}.`,
        );
      }
      out.push(v);
    }
    options.onProgress?.(out.length, texts.length);
    await options.yieldToHost?.();
  }
  return options.signal?.aborted ? null : out;
}
