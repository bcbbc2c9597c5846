import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { Bm25LexicalIndex } from '../../adapters/search/bm25-lexical-index';
import { LocalVectorIndex } from '../../adapters/search/local-vector-index';
import { openMemoryStore, type DexieMemoryStore } from '../../adapters/storage/dexie';
import {
  sampleAgent,
  sampleMessage,
  samplePassage,
} from '../../adapters/storage/dexie/sample-records';
import type { Embedder } from '../ports/embedder';
import type { SearchPage, SearchQuery } from '../ports/memory-search';
import { createMemorySearch, type LociMemorySearch } from './memory-search';
import { createSwitchableSearch } from './switchable-search';
import { tokenize } from './tokenize';

/** A toy model: each concept is one dimension; `modelId` and `dimension` tell models apart. */
function conceptEmbedder(modelId: string, dimension: number): Embedder {
  const concepts: Record<string, number> = { dog: 0, puppy: 0, tea: 1, matcha: 1 };
  const embed = (text: string) => {
    const v = new Float32Array(dimension);
    for (const t of tokenize(text)) {
      const c = concepts[t];
      if (c !== undefined) v[c] = v[c]! + 1;
      else v[dimension - 1]! += 0.05;
    }
    return v;
  };
  return {
    modelId,
    dimension,
    embedPassages: async (texts) => texts.map(embed),
    embedQuery: async (text) => embed(text),
  };
}

const NOW = 1_800_000_000_000;
const stores: DexieMemoryStore[] = [];
afterEach(() => stores.splice(0).forEach((s) => s.close()));
let dbs = 0;

async function setup() {
  dbs += 1;
  const store = await openMemoryStore(`switch-test-${dbs}-${Date.now()}`);
  stores.push(store);
  await store.apply({ agents: [sampleAgent('a')] });
  await store.apply({
    passages: [samplePassage('a', 'p1', 'My puppy Rex sleeps all day.', NOW)],
    messages: [sampleMessage('a', 'm1', 'I drink matcha every morning.', NOW - 1000, 'user')],
  });
  /** A search as the composition root builds one for an embedder (or none). */
  const build = (embedder: Embedder | null) =>
    createMemorySearch({
      store,
      lexical: new Bm25LexicalIndex(),
      vectors: embedder ? new LocalVectorIndex(embedder.dimension) : null,
      embedder,
      clock: { now: () => NOW },
      vectorStore: store,
    });
  return { store, build };
}

const q = (text: string, mode: SearchQuery['mode']): SearchQuery => ({
  agentId: 'a',
  text,
  kinds: ['message', 'passage'],
  mode,
  page: 1,
  pageSize: 10,
});
const ids = (page: SearchPage) => page.hits.map((h) => h.id);

describe('switchable search (U218, ADR 0177)', () => {
  it('U218: words only, then meaning joins in after a model is chosen, then words only again', async () => {
    const { build, store } = await setup();
    const search = createSwitchableSearch(build(null));
    await search.loadAgent('a');
    expect(search.semantic).toBe(false);
    expect(ids(await search.search(q('puppy', 'lexical')))).toEqual(['p1']);
    expect(ids(await search.search(q('dog', 'vector')))).toEqual([]);

    // A model is chosen: the loaded agent is loaded into the new search before it answers.
    await search.replace(build(conceptEmbedder('concepts-a', 8)));
    expect(search.semantic).toBe(true);
    expect(search.agentId).toBe('a');
    expect(search.unembedded).toBe(2);
    expect(await search.reembed()).toEqual({ passages: 1, messages: 1, complete: true });
    expect(ids(await search.search(q('dog', 'vector')))).toEqual(['p1']);
    expect(ids(await search.search(q('tea', 'vector')))).toEqual(['m1']);
    expect((await store.getPassages(['p1']))[0]?.embeddingModel).toBe('concepts-a');

    // "None" again: search by words only, and what was embedded stays in the store.
    await search.replace(build(null));
    expect(search.semantic).toBe(false);
    expect(ids(await search.search(q('dog', 'vector')))).toEqual([]);
    expect(ids(await search.search(q('matcha', 'lexical')))).toEqual(['m1']);
    expect((await store.getPassages(['p1']))[0]?.embeddingModel).toBe('concepts-a');
  });

  it('U218: vectors of another model (or dimension) are never used; they are embedded again', async () => {
    const { build } = await setup();
    const search = createSwitchableSearch(build(conceptEmbedder('concepts-a', 8)));
    await search.loadAgent('a');
    await search.reembed();
    expect(search.unembedded).toBe(0);

    // Another model of another dimension: nothing of model A's vectors is loaded.
    await search.replace(build(conceptEmbedder('concepts-b', 12)));
    expect(search.unembedded).toBe(2);
    expect(ids(await search.search(q('dog', 'vector')))).toEqual([]);
    expect(await search.reembed()).toEqual({ passages: 1, messages: 1, complete: true });
    expect(ids(await search.search(q('puppy', 'vector')))).toEqual(['p1']);

    // Back to model A: its message vectors are still stored, the passage is embedded again.
    await search.replace(build(conceptEmbedder('concepts-a', 8)));
    expect(search.unembedded).toBe(1);
  });

  it('calls running on the old search finish there; calls made during the switch wait for the new one', async () => {
    const { build } = await setup();
    const calls: string[] = [];
    let finishOld!: () => void;
    const old = build(null);
    const slow: LociMemorySearch = {
      ...old,
      get semantic() {
        return old.semantic;
      },
      get agentId() {
        return old.agentId;
      },
      get unembedded() {
        return old.unembedded;
      },
      indexMessages: async () => {
        calls.push('old:index started');
        await new Promise<void>((resolve) => (finishOld = resolve));
        calls.push('old:index done');
      },
    };
    const search = createSwitchableSearch(slow);
    await search.loadAgent('a');
    const next = build(conceptEmbedder('concepts-a', 8));
    const nextLoad = next.loadAgent.bind(next);
    next.loadAgent = async (agentId) => {
      calls.push('new:load');
      await nextLoad(agentId);
    };
    const indexing = search.indexMessages([]);
    await Promise.resolve();
    const switching = search.replace(next);
    const asked = search.search(q('dog', 'vector')).then((page) => {
      calls.push(`search:${ids(page).length}`);
    });
    await new Promise((r) => setTimeout(r, 0));
    expect(calls).toEqual(['old:index started']);
    finishOld();
    await Promise.all([indexing, switching, asked]);
    expect(calls).toEqual(['old:index started', 'old:index done', 'new:load', 'search:0']);
  });

  it('a failed load keeps the search that was there', async () => {
    const { build } = await setup();
    const search = createSwitchableSearch(build(null));
    await search.loadAgent('a');
    const broken = build(conceptEmbedder('concepts-a', 8));
    broken.loadAgent = () => Promise.reject(new Error('worker failed'));
    await expect(search.replace(broken)).rejects.toThrow('worker failed');
    expect(search.semantic).toBe(false);
    expect(ids(await search.search(q('puppy', 'lexical')))).toEqual(['p1']);
  });
});
