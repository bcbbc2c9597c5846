/**
 * The Node runtime of the memory evaluation: a Dexie store over fake-indexeddb (one database
 * per conversation), MiniSearch lexical index, the in-process vector index, the real Llama 3
 * tokenizer and a transformers.js embedder over a local model folder — the same adapters the
 * app uses, minus the workers.
 */
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  FIXTURE_EMBED,
  EMBED_MODELS,
  type EmbedModelSpec,
} from '../../src/adapters/embed/embed-models';
import {
  TransformersEmbedder,
  configureTransformersEnv,
} from '../../src/adapters/embed/transformers-embedder';
import { LocalVectorIndex } from '../../src/adapters/search/local-vector-index';
import { plainModelSpec } from '../lib/plain-model-spec';
import { Bm25LexicalIndex } from '../../src/adapters/search/bm25-lexical-index';
import { openMemoryStore, type DexieMemoryStore } from '../../src/adapters/storage/dexie';
import { createLlama3Tokenizer } from '../../src/adapters/tokenizer/llama3-tokenizer';
import type { Embedder } from '../../src/core/ports/embedder';
import type { IdSource } from '../../src/core/ports/clock';
import type { Tokenizer } from '../../src/core/ports/tokenizer';
import { createMemorySearch, type LociMemorySearch } from '../../src/core/search/memory-search';
import { liveReplayDeps } from '../../src/testing/live-replay-host';
import type { EpochMs } from '../../src/core/units';

/** The committed fixture model folder (the default `--embedder`). */
export const FIXTURE_MODEL_DIR = fileURLToPath(
  new URL('../../tests/fixtures/models/loci-fixture-embed', import.meta.url),
);

/**
 * The spec of a local transformers.js model folder: a registry model when the folder is named
 * after one (so its pooling and prefixes apply), otherwise mean pooling without prefixes and the
 * dimension from `config.json` (`hidden_size`).
 */
export function specOfModelDir(dir: string): EmbedModelSpec {
  const name = basename(resolve(dir));
  if (name === FIXTURE_EMBED.id) return FIXTURE_EMBED;
  const known = EMBED_MODELS.find((m) => m.id === name || m.id.endsWith(`/${name}`));
  if (known) return { ...known, id: name };
  const config = JSON.parse(readFileSync(resolve(dir, 'config.json'), 'utf8')) as {
    hidden_size?: number;
    dim?: number;
  };
  const dimension = config.hidden_size ?? config.dim;
  if (typeof dimension !== 'number') {
    throw new Error(`${dir}/config.json names no hidden_size; cannot tell the dimension.`);
  }
  return { ...plainModelSpec(name, dimension, 'unknown'), local: true };
}

/** Loads the embedder from a local model folder, never from the network. */
export async function loadLocalEmbedder(dir: string): Promise<Embedder> {
  const spec = specOfModelDir(dir);
  configureTransformersEnv({
    allowRemoteModels: false,
    localModelPath: `${dirname(resolve(dir))}/`,
  });
  return TransformersEmbedder.create({ model: spec, device: 'cpu', batchSize: 32 });
}

export function counterIds(): IdSource {
  let n = 0;
  return { next: (prefix = 'id') => `${prefix}-${(n += 1).toString(36)}` };
}

export interface ConversationRuntime {
  store: DexieMemoryStore;
  search: LociMemorySearch;
  ids: IdSource;
  tokenizer: Tokenizer;
  close(): Promise<void>;
}

let databases = 0;

/** A fresh store and search for one conversation; `now` is the search's clock. */
export async function conversationRuntime(
  embedder: Embedder | null,
  tokenizer: Tokenizer,
  now: () => EpochMs,
): Promise<ConversationRuntime> {
  databases += 1;
  const store = await openMemoryStore(`loci-eval-${process.pid}-${databases}`);
  const search = createMemorySearch({
    store,
    lexical: new Bm25LexicalIndex(),
    vectors: embedder ? new LocalVectorIndex(embedder.dimension) : null,
    embedder,
    clock: { now },
    // Message vectors persist as in the app, so replay pays the real write cost.
    vectorStore: store,
  });
  return {
    store,
    search,
    ids: counterIds(),
    tokenizer,
    async close() {
      store.db.close();
    },
  };
}

export { createLlama3Tokenizer };

export { liveReplayDeps };
