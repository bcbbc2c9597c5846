/**
 * The Node runtime of the memory evaluation: the real Llama 3 tokenizer and a transformers.js
 * embedder over a local model folder; the live replay's host (`liveReplayDeps`: in-memory
 * stores with the app's search over MiniSearch and the in-process vector index).
 */
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
import { plainModelSpec } from '../lib/plain-model-spec';
import { createLlama3Tokenizer } from '../../src/adapters/tokenizer/llama3-tokenizer';
import type { Embedder } from '../../src/core/ports/embedder';
import { liveReplayDeps } from '../../src/testing/live-replay-host';

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

export { createLlama3Tokenizer };

export { liveReplayDeps };
