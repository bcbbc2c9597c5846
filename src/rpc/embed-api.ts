/**
 * The embed worker's handler map (`src/workers/embed.worker.ts`): the embedding model and the
 * active agent's vector matrix live together in the worker, so search never blocks the UI.
 */
import type { EmbedProgress } from '../core/ports/embedder';
import type { VectorEntry, VectorHit, VectorSearchOptions } from '../core/ports/vector-index';
import type { EmbedDevice, EmbedModelSpec, TransformersEnvOptions } from './embed-types';
import type { CallContext } from './protocol';

export interface LoadedEmbedder {
  modelId: string;
  dimension: number;
  /** Where it really runs (WebGPU falls back to WASM when a session cannot be made). */
  device: EmbedDevice;
}

export type EmbedApi = {
  /** Loads (or switches to) an embedding model; emits download progress. */
  load(
    args: { model: EmbedModelSpec; device: EmbedDevice; env: TransformersEnvOptions },
    ctx: CallContext<EmbedProgress>,
  ): Promise<LoadedEmbedder>;
  /**
   * Embeds texts with the model's passage or query prefix; emits batch progress. With `modelId`,
   * it refuses when another model is loaded (the user switched models meanwhile, ADR 0177), so a
   * vector is never tagged with a model that did not make it.
   */
  embed(
    args: { texts: string[]; kind: 'passage' | 'query'; modelId?: string },
    ctx: CallContext<EmbedProgress>,
  ): Promise<Float32Array[]>;
  vectorAdd(args: { entries: VectorEntry[] }): Promise<void>;
  vectorRemove(args: { ids: string[] }): Promise<void>;
  vectorSearch(args: { query: Float32Array; options: VectorSearchOptions }): Promise<VectorHit[]>;
  vectorSearchMany(args: {
    queries: Float32Array[];
    options: VectorSearchOptions;
  }): Promise<VectorHit[][]>;
  vectorSize(args: null): Promise<number>;
  vectorClear(args: null): Promise<void>;
};
