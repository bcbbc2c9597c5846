import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalVectorIndex } from '../../adapters/search/local-vector-index';
import { Bm25LexicalIndex } from '../../adapters/search/bm25-lexical-index';
import { openMemoryStore, type DexieMemoryStore } from '../../adapters/storage/dexie';
import {
  sampleAgent,
  sampleMessage,
  samplePassage,
} from '../../adapters/storage/dexie/sample-records';
import type { Message, MessageRole } from '../model';
import type { Embedder } from '../ports/embedder';
import type { NewMessage } from '../ports/memory-store';
import type { SearchQuery } from '../ports/memory-search';
import {
  createMemorySearch,
  INDEX_SLICE_CHARS,
  LOAD_PAGE_CHARS,
  nextLoadPage,
  type LociMemorySearch,
} from './memory-search';
import { MAX_INDEXED_CHARS } from './search-docs';
import { tokenize } from './tokenize';

const DIM = 16;
/** Words of one concept share a dimension, so "dog" and "puppy" are neighbours. */
const CONCEPTS: Record<string, number> = {
  dog: 0,
  puppy: 0,
  hound: 0,
  cat: 1,
  kitten: 1,
  birthday: 2,
  生日: 2,
  cake: 3,
  coffee: 4,
  espresso: 4,
};

function conceptEmbedder(): Embedder & { calls: number } {
  const embed = (text: string) => {
    const v = new Float32Array(DIM);
    for (const t of tokenize(text)) {
      const c = CONCEPTS[t];
      if (c !== undefined) v[c] = v[c]! + 1;
      else v[8 + (t.charCodeAt(0) % 8)]! += 0.05;
    }
    return v;
  };
  return {
    modelId: 'concepts',
    dimension: DIM,
    calls: 0,
    async embedPassages(texts) {
      this.calls += texts.length;
      return texts.map(embed);
    },
    async embedQuery(text) {
      return embed(text);
    },
  };
}

const NOW = 1_800_000_000_000;
const DAY = 86_400_000;
const clock = { now: () => NOW };
const stores: DexieMemoryStore[] = [];
afterEach(() => stores.splice(0).forEach((s) => s.close()));
let dbs = 0;

async function setup(withEmbedder = true) {
  dbs += 1;
  const store = await openMemoryStore(`search-test-${dbs}-${Date.now()}`);
  stores.push(store);
  const embedder = withEmbedder ? conceptEmbedder() : null;
  const make = () =>
    createMemorySearch({
      store,
      lexical: new Bm25LexicalIndex(),
      vectors: withEmbedder ? new LocalVectorIndex(DIM) : null,
      embedder,
      clock,
      vectorStore: store,
    });
  const search = make();
  await store.apply({ agents: [sampleAgent('a'), sampleAgent('b')] });
  await search.loadAgent('a');
  const write = async (messages: NewMessage[]): Promise<Message[]> => {
    const { messages: written } = await store.apply({ messages });
    await search.indexMessages(written);
    return written;
  };
  return { store, search, embedder, write, make };
}

const q = (over: Partial<SearchQuery>): SearchQuery => ({
  agentId: 'a',
  text: '',
  kinds: ['message', 'passage'],
  mode: 'lexical',
  page: 1,
  pageSize: 10,
  ...over,
});
/** A message in the live store's shape: an assistant message is a `send_message` reply. */
const msg = (id: string, text: string, daysAgo: number, role: MessageRole = 'user') => {
  const message = sampleMessage('a', id, text, NOW - daysAgo * DAY, role);
  return role === 'assistant'
    ? { ...message, toolCall: { name: 'send_message', arguments: { message: text } } }
    : message;
};
const ids = (page: { hits: { id: string }[] }) => page.hits.map((h) => h.id);

describe('createMemorySearch', () => {
  it('R2: a Chinese query finds the Chinese message through the search module', async () => {
    const { search, write } = await setup();
    await write([msg('m1', '我的生日是五月', 3), msg('m2', '今天下雨', 2)]);
    const page = await search.search(q({ text: '生日' }));
    expect(ids(page)).toEqual(['m1']);
    expect(page.hits[0]?.message?.text).toBe('我的生日是五月');
  });

  it('R5: pages are disjoint, cover every match and report the total', async () => {
    const { search, write } = await setup();
    await write(Array.from({ length: 25 }, (_, i) => msg(`c${i}`, `coffee number ${i}`, i)));
    await write([msg('x', 'tea only', 1)]);
    const pages = await Promise.all(
      [1, 2, 3].map((page) => search.search(q({ text: 'coffee', page }))),
    );
    expect(pages.map((p) => p.hits.length)).toEqual([10, 10, 5]);
    expect(pages.every((p) => p.total === 25)).toBe(true);
    expect(new Set(pages.flatMap(ids)).size).toBe(25);
    expect((await search.search(q({ text: 'coffee', page: 4 }))).hits).toEqual([]);
    await expect(search.search(q({ text: 'coffee', page: 0 }))).rejects.toMatchObject({
      code: 'invalid_argument',
    });
  });

  it('R6: filters by role, date range, source type and excluded ids', async () => {
    const { store, search, write } = await setup();
    await write([
      msg('u', 'cake recipe', 10),
      msg('as', 'cake is great', 5, 'assistant'),
      msg('u2', 'more cake', 1),
    ]);
    const passages = [
      samplePassage('a', 'pm', 'cake memory', NOW - 2 * DAY),
      samplePassage('a', 'pd', 'cake chapter', NOW - 2 * DAY, null, {
        type: 'document',
        documentId: 'd',
        chunk: 0,
        start: 0,
        end: 1,
      }),
    ];
    await store.apply({ passages });
    await search.indexPassages(passages);
    const sorted = async (over: Partial<SearchQuery>) =>
      ids(await search.search(q({ text: 'cake', ...over }))).sort();
    expect(await sorted({ kinds: ['message'], roles: ['assistant'] })).toEqual(['as']);
    expect(await sorted({ kinds: ['message'], from: NOW - 6 * DAY, to: NOW })).toEqual([
      'as',
      'u2',
    ]);
    expect(await sorted({ kinds: ['passage'], sourceType: 'document' })).toEqual(['pd']);
    expect(await sorted({ exclude: ['u', 'pm'] })).toEqual(['as', 'pd', 'u2']);
    expect(await sorted({ mode: 'hybrid', kinds: ['message'], roles: ['user'] })).toEqual([
      'u',
      'u2',
    ]);
  });

  it('R7: vector mode finds meaning without shared words ("dog" → "puppy")', async () => {
    const { search, write } = await setup();
    await write([msg('p', 'the puppy chewed my shoe', 3), msg('k', 'a kitten slept', 2)]);
    expect((await search.search(q({ text: 'dog' }))).total).toBe(0);
    const page = await search.search(q({ text: 'dog', mode: 'vector' }));
    expect(ids(page)[0]).toBe('p');
    expect(search.semantic).toBe(true);
  });

  it('X189: a 1 MB message is embedded by its first 20,000 characters, as it is indexed', async () => {
    const { store, search, embedder } = await setup();
    const sent: string[] = [];
    const embed = embedder!.embedPassages.bind(embedder);
    embedder!.embedPassages = (texts) => {
      sent.push(...texts);
      return embed(texts);
    };
    const long = `dog ${'walk '.repeat(210_000)}`;
    const { messages } = await store.apply({
      messages: [msg('huge', long, 0), msg('small', 'cat', 0)],
    });
    await search.indexMessages(messages);
    expect(sent.map((t) => t.length)).toEqual([20_000, 3]);
    expect(sent[0]).toBe(long.slice(0, 20_000));
    expect(ids(await search.search(q({ text: 'dog', mode: 'vector', pageSize: 1 })))).toEqual([
      'huge',
    ]);
  });

  it('C19: excluded ids never shorten the vector list: it still holds its depth of other rows', async () => {
    const { store, write } = await setup();
    await write(
      Array.from({ length: 10 }, (_, i) => msg(`d${i}`, `dog ${'walk '.repeat(i)}`.trim(), i)),
    );
    const search = createMemorySearch({
      store,
      lexical: new Bm25LexicalIndex(),
      vectors: new LocalVectorIndex(DIM),
      embedder: conceptEmbedder(),
      clock,
      vectorStore: store,
      vectorDepth: 4,
    });
    await search.loadAgent('a');
    const best = ids(await search.search(q({ text: 'dog', mode: 'vector', pageSize: 4 })));
    expect(best).toHaveLength(4);
    const page = await search.search(
      q({ text: 'dog', mode: 'vector', pageSize: 4, exclude: best }),
    );
    expect(ids(page)).toHaveLength(4);
    expect(ids(page).filter((id) => best.includes(id))).toEqual([]);
  });

  it('C23: searchMany gives each hybrid query the page search gives it alone', async () => {
    const { write, search } = await setup();
    const words = ['dog', 'puppy', 'walk', 'park', 'cat', 'kitten', 'rain', 'coffee', 'tea'];
    await write(
      Array.from({ length: 60 }, (_, i) =>
        msg(
          `g${i}`,
          `${words[i % 9]} ${words[(i * 5) % 9]} ${words[(i * 7 + 3) % 9]}`,
          i,
          i % 2 ? 'assistant' : 'user',
        ),
      ),
    );
    const exclude = ['g1', 'g2', 'g3'];
    const asked = [
      q({ text: 'dog park', mode: 'hybrid', pageSize: 20, exclude }),
      q({ text: 'dog park\ncoffee with the kitten', mode: 'hybrid', pageSize: 20, exclude }),
    ];
    const together = await search.searchMany(asked);
    expect(together).toEqual(await Promise.all(asked.map((one) => search.search(one))));
    expect(ids(together[0]!)).not.toEqual(ids(together[1]!));
  });

  it('C24: hybrid search sends the vector search before it ranks lexically, and waits for both', async () => {
    const { store, embedder, write } = await setup();
    await write([
      msg('d1', 'dog walking in the park', 3),
      msg('d2', 'the hound barked at the cat', 2),
      msg('d3', 'coffee after the park', 1),
    ]);
    const events: string[] = [];
    const lexical = new Bm25LexicalIndex();
    const searchPage = lexical.searchPage.bind(lexical);
    lexical.searchPage = (query) => {
      events.push('lexical');
      return searchPage(query);
    };
    // A worker-hosted index stand-in: the search is sent at once and answers only when released.
    const inner = new LocalVectorIndex(DIM);
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const vectors = Object.assign(Object.create(inner) as LocalVectorIndex, {
      async searchMany(...args: Parameters<LocalVectorIndex['searchMany']>) {
        events.push('vector sent');
        await gate;
        events.push('vector answered');
        return inner.searchMany(...args);
      },
      async search(...args: Parameters<LocalVectorIndex['search']>) {
        events.push('vector sent');
        await gate;
        events.push('vector answered');
        return inner.search(...args);
      },
    });
    const search = createMemorySearch({
      store,
      lexical,
      vectors,
      embedder,
      clock,
      vectorStore: store,
    });
    await search.loadAgent('a');
    const asked = [
      q({ text: 'dog park', mode: 'hybrid' }),
      q({ text: 'dog park\ncoffee', mode: 'hybrid' }),
    ];
    const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
    const pending = search.searchMany(asked);
    await settle();
    // Both lexical passes ran while the one vector pass for both queries was still out.
    expect(events).toEqual(['vector sent', 'lexical', 'lexical']);
    const one = search.search(asked[0]!);
    await settle();
    expect(events.slice(3)).toEqual(['vector sent', 'lexical']);
    release();
    const [pages, alone] = await Promise.all([pending, one]);
    expect(events.filter((e) => e === 'vector answered')).toHaveLength(2);
    expect(pages[0]).toEqual(alone);
    expect(ids(pages[0]!)).toContain('d2'); // "hound" is found by the vector list only
  });

  it('R8: hybrid ranks a memory found by both lists first, and the newer of equals higher', async () => {
    const { search, write } = await setup();
    await write([
      msg('lex', 'dog walking schedule', 5), // lexical + vector
      msg('vec', 'the hound barked', 5), // vector only
      msg('old', 'schedule for dog food', 300),
      msg('new', 'schedule for dog food', 1),
    ]);
    const page = await search.search(q({ text: 'dog schedule', mode: 'hybrid' }));
    expect(ids(page).slice(0, 1)).toEqual(['lex']);
    expect(ids(page).indexOf('new')).toBeLessThan(ids(page).indexOf('old'));
    expect(ids(page)).toContain('vec');
    expect(page.total).toBe(4);
  });

  it('R9: without an embedder, vector mode is empty and hybrid is the lexical ranking', async () => {
    const { search, write } = await setup(false);
    await write([msg('a1', 'dog park', 3), msg('a2', 'dog dog dog', 2), msg('a3', 'puppy', 1)]);
    expect(search.semantic).toBe(false);
    expect(await search.search(q({ text: 'dog', mode: 'vector' }))).toMatchObject({
      hits: [],
      total: 0,
    });
    const lexical = ids(await search.search(q({ text: 'dog' })));
    const hybrid = ids(await search.search(q({ text: 'dog', mode: 'hybrid' })));
    expect(hybrid).toEqual(lexical);
    expect(hybrid).not.toContain('a3');
  });

  it('R13: tool, system and event messages are not indexed for recall by default', async () => {
    const { search, write } = await setup();
    await write([
      msg('t', 'coffee tool output', 1, 'tool'),
      msg('s', 'coffee system', 1, 'system'),
      msg('e', 'coffee event', 1, 'event'),
      msg('u', 'coffee', 1),
    ]);
    expect(ids(await search.search(q({ text: 'coffee', mode: 'hybrid' })))).toEqual(['u']);
  });

  it('R14: loadAgent rebuilds both indexes from the store without re-embedding, per agent', async () => {
    const { store, search, write, embedder, make } = await setup();
    await write([msg('m1', 'my puppy is called Rex', 2)]);
    const passage = samplePassage('a', 'p1', 'espresso machine manual', NOW - DAY);
    await store.apply({ passages: [passage] });
    await search.indexPassages([passage]); // embeds it and saves the embedding
    expect((await store.getPassages(['p1']))[0]?.embeddingModel).toBe('concepts');
    await store.apply({ messages: [sampleMessage('b', 'mb', 'puppy of agent b', NOW)] });
    const calls = embedder!.calls;

    const reopened: LociMemorySearch = make();
    await reopened.loadAgent('a');
    expect(embedder!.calls).toBe(calls);
    expect(ids(await reopened.search(q({ text: 'dog', mode: 'vector' })))).toEqual(['m1']);
    expect(ids(await reopened.search(q({ text: 'coffee', mode: 'vector' })))).toEqual(['p1']);
    expect(ids(await reopened.search(q({ text: 'puppy' })))).toEqual(['m1']);
    // searching another agent switches the indexes to it
    expect(ids(await reopened.search(q({ agentId: 'b', text: 'puppy' })))).toEqual(['mb']);
    expect(reopened.agentId).toBe('b');
  });

  it('X161: loadAgent reads a store holding a seq near 2^53 in a few queries (it walked to it in steps of 5,000)', async () => {
    const { store } = await setup(false);
    await store.apply({ messages: [sampleMessage('a', 'm1', 'first apple', NOW)] });
    const huge = { ...sampleMessage('a', 'm2', 'far apple', NOW), seq: 2 ** 53 - 1 };
    await store.db.messages.put({ ...huge, id: 'm2', ctx: 1 } as never);
    let queries = 0;
    const counted = new Proxy(store, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown;
        if (key === 'queryMessages') queries += 1;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const search = createMemorySearch({
      store: counted,
      lexical: new Bm25LexicalIndex(),
      vectors: null,
      embedder: null,
      clock,
    });
    await search.loadAgent('a');
    expect(queries).toBeLessThanOrEqual(2);
    expect(ids(await search.search(q({ text: 'apple' }))).sort()).toEqual(['m1', 'm2']);
  }, 10_000);

  it('X180: a message is indexed by its first 20,000 characters; the stored text stays whole', async () => {
    const { store, search, write } = await setup(false);
    const filler = 'plain words of a long letter '.repeat(1_000); // 29,000 characters
    const head = `walrus ${filler.slice(0, MAX_INDEXED_CHARS - 'walrus '.length - 10)}`;
    await write([msg('big', `${head} ${filler} narwhal`, 1), msg('small', 'a narwhal', 1)]);
    expect(ids(await search.search(q({ text: 'walrus' })))).toEqual(['big']);
    // "narwhal" lies past the cap: only the short message is found by it.
    expect(ids(await search.search(q({ text: 'narwhal' })))).toEqual(['small']);
    expect((await store.getMessages(['big']))[0]?.text.endsWith(' narwhal')).toBe(true);
  });

  it('X181: a load reads few 1 MB messages per query and grows the page for short ones', () => {
    expect(nextLoadPage(16, 16 * 1_000_000)).toBe(LOAD_PAGE_CHARS / 1_000_000);
    expect(nextLoadPage(2, 2 * 3 * LOAD_PAGE_CHARS)).toBe(1);
    expect(nextLoadPage(16, 16 * 200)).toBe(64);
    expect(nextLoadPage(4_096, 4_096 * 200)).toBe(5_000);
  });

  it('X181: loadAgent indexes a long history in slices with a yield between them, and finds all of it', async () => {
    const { store } = await setup(false);
    const text = (i: number) => `note ${i} ${'x'.repeat(MAX_INDEXED_CHARS)}`;
    const count = Math.ceil((3 * INDEX_SLICE_CHARS) / MAX_INDEXED_CHARS);
    await store.apply({
      messages: Array.from({ length: count }, (_, i) => msg(`m${i}`, text(i), 1)),
    });
    let yields = 0;
    const search = createMemorySearch({
      store,
      lexical: new Bm25LexicalIndex(),
      vectors: null,
      embedder: null,
      clock,
      yieldToHost: async () => {
        yields += 1;
      },
    });
    await search.loadAgent('a');
    // Each slice holds at most INDEX_SLICE_CHARS characters of documents, so the page gets at
    // least two chances to paint while these (over three slices' worth) are indexed.
    expect(yields).toBeGreaterThanOrEqual(2);
    const found = await search.search(q({ text: 'note', pageSize: count }));
    expect(found.total).toBe(count);
  }, 20_000);

  it('R15: removed passages leave every mode', async () => {
    const { store, search } = await setup();
    const ps = [
      samplePassage('a', 'p1', 'cat facts', NOW),
      samplePassage('a', 'p2', 'cat care', NOW),
    ];
    await store.apply({ passages: ps });
    await search.indexPassages(ps);
    await search.removePassages('a', ['p1']);
    for (const mode of ['lexical', 'vector', 'hybrid'] as const) {
      expect(ids(await search.search(q({ text: 'cat', mode })))).toEqual(['p2']);
    }
  });

  it('R16: searchByDate pages conversation messages in a date range, oldest first, with the total', async () => {
    const { search, write } = await setup();
    await write(Array.from({ length: 12 }, (_, i) => msg(`d${i}`, `day ${i}`, 12 - i)));
    await write([msg('tool', 'x', 5, 'tool')]);
    const page = await search.searchByDate('a', NOW - 10 * DAY, NOW - 3 * DAY, 2, 5);
    expect(page.total).toBe(8);
    expect(ids(page)).toEqual(['d7', 'd8', 'd9']);
  });

  it('R17: indexPassages uses a matching stored embedding and embeds (and saves) the rest', async () => {
    const { store, search, embedder } = await setup();
    const own = samplePassage(
      'a',
      'own',
      'unrelated words',
      NOW,
      Float32Array.from({ length: DIM }, (_, i) => (i === 1 ? 1 : 0)),
    );
    own.embeddingModel = 'concepts';
    const bare = samplePassage('a', 'bare', 'kitten photos', NOW);
    await store.apply({ passages: [own, bare] });
    const before = embedder!.calls;
    await search.indexPassages([own, bare]);
    expect(embedder!.calls - before).toBe(1);
    expect((await store.getPassages(['bare']))[0]?.embedding).toBeInstanceOf(Float32Array);
    // "cat" is concept 1: the stored vector of `own` and the fresh one of `bare` both answer it
    expect(ids(await search.search(q({ text: 'cat', mode: 'vector' }))).sort()).toEqual([
      'bare',
      'own',
    ]);
  });

  it('R18: after a model switch, reembed catches up on old passages and messages, in batches, once', async () => {
    const { store, embedder, make } = await setup();
    // Written before this embedder: a passage embedded by another model, messages never embedded.
    const old = samplePassage('a', 'p-old', 'espresso notes', NOW, new Float32Array(DIM).fill(1));
    old.embeddingModel = 'old-model';
    await store.apply({ passages: [old] });
    await store.apply({
      messages: [msg('m1', 'my puppy Rex', 3), msg('m2', 'a kitten named Tom', 2, 'assistant')],
    });
    const search = make();
    await search.loadAgent('a');
    expect(search.unembedded).toBe(3);
    expect(ids(await search.search(q({ text: 'dog', mode: 'vector' })))).toEqual([]);

    // An aborted run embeds nothing and says it did not finish.
    const stop = new AbortController();
    stop.abort();
    expect(await search.reembed({ signal: stop.signal })).toEqual({
      passages: 0,
      messages: 0,
      complete: false,
    });

    const progress: [number, number][] = [];
    const result = await search.reembed({ batch: 2, onProgress: (d, t) => progress.push([d, t]) });
    expect(result).toEqual({ passages: 1, messages: 2, complete: true });
    expect(progress).toEqual([
      [0, 3],
      [1, 3],
      [3, 3],
    ]);
    expect(search.unembedded).toBe(0);
    expect(ids(await search.search(q({ text: 'dog', mode: 'vector' })))).toEqual(['m1']);
    expect(ids(await search.search(q({ text: 'coffee', mode: 'vector' })))).toEqual(['p-old']);
    expect((await store.getPassages(['p-old']))[0]?.embeddingModel).toBe('concepts');

    // It was persisted: a fresh load finds nothing to do and embeds nothing.
    const calls = embedder!.calls;
    const reopened = make();
    await reopened.loadAgent('a');
    expect(reopened.unembedded).toBe(0);
    expect(await reopened.reembed()).toEqual({ passages: 0, messages: 0, complete: true });
    expect(embedder!.calls).toBe(calls);
    expect(ids(await reopened.search(q({ text: 'cat', mode: 'vector' })))).toEqual(['m2']);
  });
});
