import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FIXTURE_EMBED } from '../adapters/embed/embed-models';
import { reembedAll } from '../adapters/embed/reembed-all';
import {
  TransformersEmbedder,
  configureTransformersEnv,
} from '../adapters/embed/transformers-embedder';
import { WorkerEmbedder } from '../adapters/embed/worker-embedder';
import { WorkerVectorIndex } from '../adapters/embed/worker-vector-index';
import type { Passage } from '../core/model';
import type { Embedder } from '../core/ports/embedder';
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

describe('reembedAll', () => {
  function memoryStore(passages: Passage[]) {
    const rows = new Map(passages.map((p) => [p.id, p]));
    let transactions = 0;
    return {
      rows,
      transactions: () => transactions,
      countPassages: async () => rows.size,
      queryPassages: async (_agent: string, q?: { offset?: number; limit?: number }) =>
        [...rows.values()].slice(q?.offset ?? 0, (q?.offset ?? 0) + (q?.limit ?? rows.size)),
      apply: async (changes: { passages?: Passage[] }) => {
        transactions += 1;
        for (const p of changes.passages ?? []) rows.set(p.id, p);
        return { messages: [] };
      },
    };
  }
  const passage = (id: string, text: string, model: string | null): Passage => ({
    id,
    agentId: 'a',
    text,
    source: { type: 'memory' },
    tags: [],
    at: 0,
    embedding: model ? new Float32Array(4) : null,
    embeddingModel: model,
    dimension: model ? 4 : 0,
  });
  const fake: Embedder = {
    modelId: 'new-model',
    dimension: 3,
    embedPassages: async (texts) => texts.map((t) => Float32Array.of(t.length, 1, 0)),
    embedQuery: async () => Float32Array.of(1, 0, 0),
  };

  it('E25: re-embeds stale passages in batches with progress, records model id and dimension, skips fresh ones', async () => {
    const store = memoryStore([
      passage('a', 'one', 'old'),
      passage('b', 'two', null),
      passage('c', 'three', 'new-model'),
      passage('d', 'four', 'old'),
      passage('e', 'five', 'old'),
    ]);
    store.rows.set('c', { ...store.rows.get('c')!, dimension: 3, embedding: new Float32Array(3) });
    const added: string[] = [];
    const progress: number[] = [];
    const result = await reembedAll({
      store,
      embedder: fake,
      agentId: 'a',
      batchSize: 2,
      onProgress: (p) => progress.push(p.done),
      vectorIndex: {
        add: async (e) => void added.push(...e.map((x) => x.id)),
        remove: async () => {},
        search: async () => [],
        size: async () => 0,
        clear: async () => {},
      },
    });
    expect(result).toEqual({ reembedded: 4, stopped: false });
    expect(progress).toEqual([0, 2, 4, 5]);
    for (const p of store.rows.values()) {
      expect(p.embeddingModel).toBe('new-model');
      expect(p.dimension).toBe(3);
      expect(p.embedding?.length).toBe(3);
    }
    expect(added.sort()).toEqual(['a', 'b', 'd', 'e']);
    expect(store.transactions()).toBe(3);
  });

  it('E25: an aborted run stops between batches and a rerun finishes the rest', async () => {
    const store = memoryStore([
      passage('a', 'x', 'old'),
      passage('b', 'y', 'old'),
      passage('c', 'z', 'old'),
    ]);
    const controller = new AbortController();
    const first = await reembedAll({
      store,
      embedder: fake,
      agentId: 'a',
      batchSize: 1,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.done === 1) controller.abort();
      },
    });
    expect(first).toEqual({ reembedded: 1, stopped: true });
    const second = await reembedAll({ store, embedder: fake, agentId: 'a', batchSize: 1 });
    expect(second.reembedded).toBe(2);
  });
});
