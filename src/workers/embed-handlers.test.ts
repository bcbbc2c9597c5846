import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FIXTURE_EMBED } from '../adapters/embed/embed-models';
import {
  TransformersEmbedder,
  configureTransformersEnv,
} from '../adapters/embed/transformers-embedder';
import { WorkerEmbedder } from '../adapters/embed/worker-embedder';
import { WorkerVectorIndex } from '../adapters/embed/worker-vector-index';
import { VectorMatrix } from '../core/search/vector-matrix';
import type { EmbedApi } from '../rpc/embed-api';
import type { RpcEndpoint } from '../rpc/protocol';
import { RpcClient, type RpcConnection } from '../rpc/rpc-client';
import { serveRpc } from '../rpc/serve-rpc';
import { createEmbedHandlers } from './embed-handlers';

const env = {
  allowRemoteModels: false,
  localModelPath: fileURLToPath(new URL('../../tests/fixtures/models/', import.meta.url)),
};

function connectEmbed(): RpcClient<EmbedApi> {
  const connect = (): RpcConnection => {
    const channel = new MessageChannel();
    const stop = serveRpc<EmbedApi>(
      channel.port2 as unknown as RpcEndpoint,
      createEmbedHandlers({
        configureEnv: configureTransformersEnv,
        createEmbedder: (model, _device, onProgress) =>
          TransformersEmbedder.create({ model, device: 'cpu', onProgress }),
        createMatrix: (dimension) => new VectorMatrix(dimension),
      }),
    );
    return {
      endpoint: channel.port1 as unknown as RpcEndpoint,
      onCrash: () => {},
      terminate: () => {
        stop();
        channel.port1.close();
      },
    };
  };
  return new RpcClient<EmbedApi>(connect);
}

describe('embed worker handlers over RPC (real transformers.js + VectorMatrix)', () => {
  it('E24: the worker embedder and vector index answer a semantic search across the boundary', async () => {
    const rpc = connectEmbed();
    const embedder = new WorkerEmbedder(rpc, FIXTURE_EMBED, 'wasm', env);
    const index = new WorkerVectorIndex(rpc);
    const texts = {
      p1: 'my sister and her daughter',
      p2: 'we ate pizza and noodles',
      p3: 'the flight to tokyo',
      p4: '我家的猫和狗',
    };
    const vectors = await embedder.embedPassages(Object.values(texts));
    expect(vectors[0]).toBeInstanceOf(Float32Array);
    await index.add(
      Object.keys(texts).map((id, i) => ({ id, kind: 'passage' as const, vector: vectors[i]! })),
    );
    expect(await index.size()).toBe(4);
    const hits = await index.search(await embedder.embedQuery('dinner food'), { k: 2 });
    expect(hits[0]?.id).toBe('p2');
    const pets = await index.search(await embedder.embedQuery('puppy kitten'), { k: 1 });
    expect(pets[0]?.id).toBe('p4');
    await index.remove(['p2']);
    expect(await index.size()).toBe(3);
    await index.clear();
    expect(await index.size()).toBe(0);
    expect(await index.search(vectors[0]!, { k: 3 })).toEqual([]);
    rpc.terminate();
  });
});

describe('embed worker handlers after a model switch (ADR 0177)', () => {
  it('U218: an embedder of the model switched away from is refused, never answered by the new model', async () => {
    const handlers = createEmbedHandlers({
      configureEnv: () => {},
      createEmbedder: async (model) => ({
        modelId: model.id,
        dimension: model.dimension,
        device: 'wasm',
        embedPassages: async (texts) => texts.map(() => new Float32Array(model.dimension)),
        embedQuery: async () => new Float32Array(model.dimension),
      }),
      createMatrix: (dimension) => new VectorMatrix(dimension),
    });
    const ctx = { emit: () => {}, signal: new AbortController().signal };
    const other = { ...FIXTURE_EMBED, id: 'other-model', dimension: 8 };
    await handlers.load({ model: FIXTURE_EMBED, device: 'wasm', env }, ctx);
    const first = await handlers.embed(
      { texts: ['tea'], kind: 'passage', modelId: FIXTURE_EMBED.id },
      ctx,
    );
    expect(first[0]).toHaveLength(FIXTURE_EMBED.dimension);
    await handlers.load({ model: other, device: 'wasm', env }, ctx);
    await expect(
      handlers.embed({ texts: ['tea'], kind: 'passage', modelId: FIXTURE_EMBED.id }, ctx),
    ).rejects.toThrow('The embedding model changed to other-model');
    const now = await handlers.embed(
      { texts: ['tea'], kind: 'query', modelId: 'other-model' },
      ctx,
    );
    expect(now[0]).toHaveLength(8);
  });
});
