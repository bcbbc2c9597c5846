import { AppError } from '../core/errors';
import type { EmbedProgress, Embedder } from '../core/ports/embedder';
import type { VectorEntry, VectorHit, VectorSearchOptions } from '../core/ports/vector-index';
import type { EmbedModelSpec } from '../adapters/embed/embed-models';
import type { EmbedDevice, TransformersEnvOptions } from '../adapters/embed/transformers-embedder';
import type { EmbedApi } from '../rpc/embed-api';

/** The part of `VectorMatrix` (src/core/search/vector-matrix.ts) the worker uses. */
export interface MatrixLike {
  readonly dimension: number;
  add(entries: VectorEntry[]): void;
  remove(ids: string[]): void;
  search(query: Float32Array, options: VectorSearchOptions): VectorHit[];
  searchMany(queries: readonly Float32Array[], options: VectorSearchOptions): VectorHit[][];
  size(): number;
  clear(): void;
}

export interface EmbedWorkerDeps {
  configureEnv(env: TransformersEnvOptions): void;
  createEmbedder(
    model: EmbedModelSpec,
    device: EmbedDevice,
    onProgress: (p: EmbedProgress) => void,
  ): Promise<Embedder & { readonly device: EmbedDevice; dispose?(): Promise<void> }>;
  createMatrix(dimension: number): MatrixLike;
}

/**
 * The embed worker's handlers (rule E24): one embedding model at a time and one vector matrix,
 * created with the dimension of the first vectors added (a clear resets it, so a model switch to
 * another dimension starts a fresh matrix).
 */
export function createEmbedHandlers(deps: EmbedWorkerDeps): EmbedApi {
  let embedder: Awaited<ReturnType<EmbedWorkerDeps['createEmbedder']>> | null = null;
  let matrix: MatrixLike | null = null;

  return {
    async load({ model, device, env }, ctx) {
      deps.configureEnv(env);
      if (embedder && embedder.modelId === model.id) {
        return {
          modelId: embedder.modelId,
          dimension: embedder.dimension,
          device: embedder.device,
        };
      }
      const previous = embedder;
      embedder = null;
      await previous?.dispose?.();
      embedder = await deps.createEmbedder(model, device, (p) => ctx.emit(p));
      return { modelId: embedder.modelId, dimension: embedder.dimension, device: embedder.device };
    },
    async embed({ texts, kind, modelId }, ctx) {
      if (!embedder) throw new AppError('embedder_failed', 'No embedding model is loaded.');
      if (modelId !== undefined && embedder.modelId !== modelId) {
        throw new AppError(
          'embedder_failed',
          `The embedding model changed to ${embedder.modelId} while ${modelId} was asked for.`,
        );
      }
      if (kind === 'query') {
        if (texts.length !== 1) throw new AppError('invalid_argument', 'A query is one text.');
        return [await embedder.embedQuery(texts[0] ?? '')];
      }
      return embedder.embedPassages(texts, (p) => ctx.emit(p));
    },
    async vectorAdd({ entries }) {
      const first = entries[0];
      if (!first) return;
      matrix ??= deps.createMatrix(first.vector.length);
      matrix.add(entries);
    },
    async vectorRemove({ ids }) {
      matrix?.remove(ids);
    },
    async vectorSearch({ query, options }) {
      if (!matrix || matrix.size() === 0) return [];
      return matrix.search(query, options);
    },
    async vectorSearchMany({ queries, options }) {
      if (!matrix || matrix.size() === 0) return queries.map(() => []);
      return matrix.searchMany(queries, options);
    },
    async vectorSize() {
      return matrix?.size() ?? 0;
    },
    async vectorClear() {
      matrix?.clear();
      matrix = null;
    },
  };
}
