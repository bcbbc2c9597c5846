/// <reference lib="webworker" />
// The embed worker: transformers.js (WebGPU or WASM) plus the active agent's vector matrix.
import {
  TransformersEmbedder,
  configureTransformersEnv,
} from '../adapters/embed/transformers-embedder';
import { VectorMatrix } from '../core/search/vector-matrix';
import type { RpcEndpoint } from '../rpc/protocol';
import { serveRpc } from '../rpc/serve-rpc';
import { createEmbedHandlers } from './embed-handlers';

serveRpc(
  self as unknown as RpcEndpoint,
  createEmbedHandlers({
    configureEnv: configureTransformersEnv,
    createEmbedder: (model, device, onProgress) =>
      TransformersEmbedder.create({ model, device, onProgress }),
    createMatrix: (dimension) => new VectorMatrix(dimension),
  }),
);
