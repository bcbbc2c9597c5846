/**
 * The app's embedder and vector index as the page sees them — `WorkerEmbedder` and
 * `WorkerVectorIndex` over `RpcClient` — talking to {@link ./embed-worker-thread.ts} in a Node
 * worker thread, so a benchmark times the app's layout: the vector matrix and the query
 * embedding in a worker, BM25 and planning on the calling thread.
 */
import { MessageChannel, Worker } from 'node:worker_threads';
import { WorkerEmbedder } from '../../src/adapters/embed/worker-embedder';
import { WorkerVectorIndex } from '../../src/adapters/embed/worker-vector-index';
import type { EmbedApi } from '../../src/rpc/embed-api';
import type { RpcEndpoint } from '../../src/rpc/protocol';
import { RpcClient } from '../../src/rpc/rpc-client';
import { plainModelSpec } from './plain-model-spec';

export interface ThreadedEmbedder {
  embedder: WorkerEmbedder;
  vectors: WorkerVectorIndex;
  close(): Promise<void>;
}

export async function threadedEmbedder(
  dimension: number,
  modelId: string,
): Promise<ThreadedEmbedder> {
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(new URL('./embed-worker-thread.mjs', import.meta.url), {
    workerData: { port: port2 },
    transferList: [port2],
  });
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
  const rpc = new RpcClient<EmbedApi>(() => ({
    endpoint: port1 as unknown as RpcEndpoint,
    onCrash: (listener) => worker.once('error', (e) => listener(String(e))),
    terminate: () => void worker.terminate(),
  }));
  const embedder = new WorkerEmbedder(rpc, plainModelSpec(modelId, dimension, 'any'), 'wasm', {
    allowRemoteModels: false,
  });
  await embedder.ready();
  return {
    embedder,
    vectors: new WorkerVectorIndex(rpc),
    close: async () => {
      port1.close();
      await worker.terminate();
    },
  };
}
