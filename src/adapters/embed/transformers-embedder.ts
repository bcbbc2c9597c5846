import { env, pipeline, type FeatureExtractionPipeline } from '@huggingface/transformers';
import { AppError } from '../../core/errors';
import type { EmbedProgress, Embedder } from '../../core/ports/embedder';
import type { EmbedModelSpec } from './embed-models';

import type { EmbedDevice, TransformersEnvOptions } from '../../rpc/embed-types';

export type { EmbedDevice, TransformersEnvOptions };

/**
 * Points transformers.js at local models and the self-hosted ONNX Runtime wasm (rule E21), single
 * threaded because the app is not cross-origin isolated. Call once per worker before a load.
 */
export function configureTransformersEnv(options: TransformersEnvOptions): void {
  env.allowRemoteModels = options.allowRemoteModels;
  env.allowLocalModels = options.localModelPath !== undefined;
  if (options.localModelPath !== undefined) env.localModelPath = options.localModelPath;
  const wasm = env.backends.onnx?.wasm;
  if (wasm && options.ortBaseUrl !== undefined) {
    wasm.wasmPaths = {
      mjs: `${options.ortBaseUrl}ort-wasm-simd-threaded.asyncify.mjs`,
      wasm: `${options.ortBaseUrl}ort-wasm-simd-threaded.asyncify.wasm`,
    };
    wasm.numThreads = 1;
  }
}

export interface TransformersEmbedderOptions {
  model: EmbedModelSpec;
  /** Preferred device; WebGPU falls back to WASM if the session cannot be created. */
  device: EmbedDevice;
  /** Texts per forward pass. Default 16. */
  batchSize?: number;
  onProgress?: (p: EmbedProgress) => void;
}

/**
 * An {@link Embedder} over a transformers.js feature-extraction pipeline, with the model's
 * pooling, normalisation and query/passage prefixes (rule E20). Runs in the embed worker in the
 * app and directly in Node tests — the same code either way.
 */
export class TransformersEmbedder implements Embedder {
  readonly modelId: string;
  readonly dimension: number;

  private constructor(
    private readonly extractor: FeatureExtractionPipeline,
    private readonly spec: EmbedModelSpec,
    /** Where the session actually runs (after any WebGPU → WASM fallback). */
    readonly device: EmbedDevice,
    private readonly batchSize: number,
  ) {
    this.modelId = spec.id;
    this.dimension = spec.dimension;
  }

  /** Loads the model; rejects with `embedder_failed` (or `network_unavailable`) on failure. */
  static async create(options: TransformersEmbedderOptions): Promise<TransformersEmbedder> {
    const { model, onProgress } = options;
    const devices: EmbedDevice[] =
      options.device === 'webgpu' ? ['webgpu', 'wasm'] : [options.device];
    let lastError: unknown;
    for (const device of devices) {
      try {
        const extractor = await pipeline('feature-extraction', model.id, {
          device,
          dtype: device === 'webgpu' ? model.dtype.webgpu : model.dtype.wasm,
          progress_callback: (info: unknown) => {
            const progress = toEmbedProgress(info);
            if (progress && onProgress) onProgress(progress);
          },
        });
        onProgress?.({ type: 'ready', modelId: model.id, device });
        return new TransformersEmbedder(extractor, model, device, options.batchSize ?? 16);
      } catch (error) {
        lastError = error;
      }
    }
    const message = lastError instanceof Error ? lastError.message : String(lastError);
    const offline = /failed to fetch|networkerror|load failed/i.test(message);
    throw new AppError(
      offline ? 'network_unavailable' : 'embedder_failed',
      offline
        ? `The embedding model ${model.id} could not be downloaded: the network is unavailable.`
        : `The embedding model ${model.id} could not be loaded: ${message}`,
      { modelId: model.id },
    );
  }

  async embedPassages(
    texts: string[],
    onProgress?: (p: EmbedProgress) => void,
  ): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      const batch = texts
        .slice(start, start + this.batchSize)
        .map((t) => this.spec.passagePrefix + t);
      out.push(...(await this.run(batch)));
      onProgress?.({ type: 'embedding', done: out.length, total: texts.length });
    }
    return out;
  }

  async embedQuery(text: string): Promise<Float32Array> {
    const [vector] = await this.run([this.spec.queryPrefix + text]);
    if (!vector) throw new AppError('embedder_failed', 'The embedder returned no vector.');
    return vector;
  }

  /** Releases the ONNX session (and its GPU buffers). */
  async dispose(): Promise<void> {
    await this.extractor.dispose();
  }

  private async run(texts: string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const output = await this.extractor(texts, {
      pooling: this.spec.pooling,
      normalize: this.spec.normalize,
    });
    const data = output.data as Float32Array;
    const [rows, dims] = output.dims as [number, number];
    if (dims !== this.dimension) {
      throw new AppError(
        'embedding_dimension_mismatch',
        `${this.modelId} returned ${dims}-d vectors; the registry says ${this.dimension}.`,
      );
    }
    const vectors: Float32Array[] = [];
    for (let r = 0; r < rows; r += 1) vectors.push(data.slice(r * dims, (r + 1) * dims));
    return vectors;
  }
}

/** Maps a transformers.js progress callback payload to {@link EmbedProgress} (or null to skip). */
export function toEmbedProgress(info: unknown): EmbedProgress | null {
  if (typeof info !== 'object' || info === null) return null;
  const { status, file, loaded, total } = info as Record<string, unknown>;
  if (status === 'progress_total' && typeof loaded === 'number' && typeof total === 'number') {
    return { type: 'loading', file: 'all files', loadedBytes: loaded, totalBytes: total };
  }
  if (status === 'progress' && typeof loaded === 'number' && typeof total === 'number') {
    return { type: 'loading', file: String(file ?? ''), loadedBytes: loaded, totalBytes: total };
  }
  return null;
}
