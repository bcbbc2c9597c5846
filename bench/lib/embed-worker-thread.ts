/**
 * The embed worker of the app (`src/workers/embed.worker.ts`) as a Node worker thread for the
 * benchmark: the same handlers (`createEmbedHandlers`) and the same `VectorMatrix`, served over
 * the same RPC, with the hash "embedding" in place of a model so the figure is Loci's own work.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { VectorMatrix } from '../../src/core/search/vector-matrix';
import type { RpcEndpoint } from '../../src/rpc/protocol';
import { serveRpc } from '../../src/rpc/serve-rpc';
import { createEmbedHandlers } from '../../src/workers/embed-handlers';
import { hashEmbedder } from './hash-embedder';

const { port } = workerData as { port: MessagePort };
serveRpc(
  port as unknown as RpcEndpoint,
  createEmbedHandlers({
    configureEnv: () => {},
    createEmbedder: async (model) => ({
      ...hashEmbedder(model.dimension, model.id, 3),
      device: 'wasm' as const,
    }),
    createMatrix: (dimension) => new VectorMatrix(dimension),
  }),
);
parentPort?.postMessage('ready');
