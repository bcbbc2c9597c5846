import type { EmbedderDevice } from '../../core/capability/gpu-probe';
import type { EmbedProgress, Embedder } from '../../core/ports/embedder';
import type { EmbedApi, LoadedEmbedder } from '../../rpc/embed-api';
import { RpcClient, type RpcConnection } from '../../rpc/rpc-client';
import { workerConnection } from '../../rpc/worker-connection';
import type { EmbedModelSpec } from './embed-models';
import type { TransformersEnvOptions } from './transformers-embedder';
import { WorkerVectorIndex } from './worker-vector-index';

/**
 * The main thread's {@link Embedder} over the embed worker (rule E24). The model loads on the
 * first embed (or `ready()`); a worker crash makes the next call reload it.
 */
export class WorkerEmbedder implements Embedder {
  readonly modelId: string;
  readonly dimension: number;
  private loading: Promise<LoadedEmbedder> | null = null;

  constructor(
    private readonly rpc: RpcClient<EmbedApi>,
    readonly model: EmbedModelSpec,
    private readonly device: EmbedderDevice,
    private readonly env: TransformersEnvOptions,
    private readonly onLoadProgress?: (p: EmbedProgress) => void,
  ) {
    this.modelId = model.id;
    this.dimension = model.dimension;
    rpc.onCrash(() => {
      this.loading = null;
    });
  }

  /** Loads the model in the worker (once); resolves with where it runs. */
  ready(): Promise<LoadedEmbedder> {
    this.loading ??= this.rpc
      .call(
        'load',
        { model: this.model, device: this.device, env: this.env },
        this.onLoadProgress ? { onEvent: this.onLoadProgress } : {},
      )
      .catch((error: unknown) => {
        this.loading = null;
        throw error;
      });
    return this.loading;
  }

  async embedPassages(
    texts: string[],
    onProgress?: (p: EmbedProgress) => void,
  ): Promise<Float32Array[]> {
    await this.ready();
    return this.rpc.call(
      'embed',
      { texts, kind: 'passage', modelId: this.modelId },
      onProgress ? { onEvent: onProgress } : {},
    );
  }

  async embedQuery(text: string): Promise<Float32Array> {
    await this.ready();
    const [vector] = await this.rpc.call('embed', {
      texts: [text],
      kind: 'query',
      modelId: this.modelId,
    });
    if (!vector) throw new Error('the embed worker returned no vector');
    return vector;
  }
}

/** Environment for transformers.js in the worker: fixture models from the app, others from the Hub. */
export function defaultTransformersEnv(
  model: EmbedModelSpec,
  baseUrl: string,
  origin: string,
): TransformersEnvOptions {
  return model.local
    ? {
        allowRemoteModels: false,
        localModelPath: `${baseUrl}models/`,
        ortBaseUrl: `${origin}${baseUrl}ort/`,
      }
    : { allowRemoteModels: true, ortBaseUrl: `${origin}${baseUrl}ort/` };
}

/** The embed worker as an RPC connection factory (a new worker on every restart). */
export function embedWorkerConnection(): () => RpcConnection {
  return workerConnection(
    () => new Worker(new URL('../../workers/embed.worker.ts', import.meta.url), { type: 'module' }),
  );
}

export interface EmbedWorkerClients {
  rpc: RpcClient<EmbedApi>;
  embedder: WorkerEmbedder;
  vectorIndex: WorkerVectorIndex;
  /** A new embedder for another model over the same worker (the vector matrix stays). */
  switchModel(model: EmbedModelSpec): WorkerEmbedder;
}

/**
 * What `main.ts` calls: one embed worker with an {@link Embedder} and a `VectorIndex` over it.
 * `device` comes from `judgeDevice(probe).embedder`.
 */
export function createEmbedWorkerClients(options: {
  model: EmbedModelSpec;
  device: EmbedderDevice;
  env?: TransformersEnvOptions;
  onLoadProgress?: (p: EmbedProgress) => void;
}): EmbedWorkerClients {
  const rpc = new RpcClient<EmbedApi>(embedWorkerConnection());
  const envFor = (model: EmbedModelSpec): TransformersEnvOptions =>
    options.env ?? defaultTransformersEnv(model, import.meta.env.BASE_URL, location.origin);
  const make = (model: EmbedModelSpec) =>
    new WorkerEmbedder(rpc, model, options.device, envFor(model), options.onLoadProgress);
  return {
    rpc,
    embedder: make(options.model),
    vectorIndex: new WorkerVectorIndex(rpc),
    switchModel: make,
  };
}
