import { describe, expect, it } from 'vitest';
import type { LexicalDoc, LexicalIndex } from '../../core/ports/lexical-index';
import { Bm25LexicalIndex } from './bm25-lexical-index';
import { MiniSearchLexicalIndex } from '../../testing/minisearch-lexical-index';

type Index = LexicalIndex & { clear(): void };
const IMPLEMENTATIONS: [string, () => Index][] = [
  ['Bm25LexicalIndex', () => new Bm25LexicalIndex()],
  ['MiniSearchLexicalIndex (reference)', () => new MiniSearchLexicalIndex()],
];

const docs: LexicalDoc[] = [
  { id: 'm1', kind: 'message', text: '我的生日是五月', at: 100, tag: 'user' },
  {
    id: 'm2',
    kind: 'message',
    text: 'My birthday is in May, remember the cake',
    at: 200,
    tag: 'user',
  },
  { id: 'm3', kind: 'message', text: 'I will remember your birthday', at: 300, tag: 'assistant' },
  { id: 'p1', kind: 'passage', text: 'Birthdays: Ana in May, Bo in June', at: 400, tag: 'memory' },
  { id: 'p2', kind: 'passage', text: '五月的天气很好', at: 500, tag: 'document' },
];

describe.each(IMPLEMENTATIONS)('%s', (_name, make) => {
  const index = (): Index => {
    const i = make();
    i.add(docs);
    return i;
  };

  it('R2: a Chinese query finds the Chinese message ("生日" → "我的生日是五月")', () => {
    const hits = index().search({ text: '生日', k: 10 });
    expect(hits.map((h) => h.id)).toEqual(['m1']);
  });

  it('R2: an English query matches plural and singular, best match first', () => {
    const hits = index().search({ text: 'birthday cake', k: 10 });
    expect(hits[0]?.id).toBe('m2');
    expect(hits.map((h) => h.id).sort()).toEqual(['m2', 'm3', 'p1']);
  });

  it('R3: filters by kind, tag and date range', () => {
    const i = index();
    expect(i.search({ text: 'birthday', k: 10, kinds: ['passage'] }).map((h) => h.id)).toEqual([
      'p1',
    ]);
    expect(i.search({ text: 'birthday', k: 10, tags: ['assistant'] }).map((h) => h.id)).toEqual([
      'm3',
    ]);
    expect(i.search({ text: '五月', k: 10, from: 150, to: 600 }).map((h) => h.id)).toEqual(['p2']);
  });

  it('R4: removal and re-adding are incremental; k caps the hits', () => {
    const i = index();
    i.remove(['m2', 'unknown']);
    expect(i.size()).toBe(4);
    expect(i.search({ text: 'cake', k: 10 })).toEqual([]);
    i.add([{ id: 'm3', kind: 'message', text: 'cake for everyone', at: 300, tag: 'assistant' }]);
    expect(i.search({ text: 'cake', k: 10 }).map((h) => h.id)).toEqual(['m3']);
    expect(i.search({ text: 'remember', k: 10 })).toEqual([]);
    expect(i.search({ text: 'may', k: 1 })).toHaveLength(1);
  });

  it('R4: seeded differential — random adds, replacements and removes find what a fresh index finds', () => {
    const words = ['apple', 'pear', 'plum', '苹果', '香蕉', 'kiwi', 'fig', 'lime'];
    let a = 12345;
    const r = () => (a = (Math.imul(a, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const live = new Map<string, LexicalDoc>();
    const inc = make();
    for (let step = 0; step < 400; step += 1) {
      const id = `d${Math.floor(r() * 60)}`;
      if (r() < 0.7) {
        const text = Array.from(
          { length: 1 + Math.floor(r() * 4) },
          () => words[Math.floor(r() * words.length)]!,
        ).join(' ');
        const doc: LexicalDoc = { id, kind: 'message', text, at: step, tag: 'user' };
        live.set(id, doc);
        inc.add([doc]);
      } else {
        live.delete(id);
        inc.remove([id]);
      }
    }
    const fresh = make();
    fresh.add([...live.values()]);
    expect(inc.size()).toBe(live.size);
    for (const w of words) {
      const got = inc
        .search({ text: w, k: 1000 })
        .map((h) => h.id)
        .sort();
      expect(got).toEqual(
        fresh
          .search({ text: w, k: 1000 })
          .map((h) => h.id)
          .sort(),
      );
    }
  });

  it('R4: a repeated query sees documents added or removed since it last ran', () => {
    const i = index();
    expect(i.search({ text: 'cake', k: 10 }).map((h) => h.id)).toEqual(['m2']);
    i.add([{ id: 'm9', kind: 'message', text: 'more cake', at: 900, tag: 'user' }]);
    expect(
      i
        .search({ text: 'cake', k: 10 })
        .map((h) => h.id)
        .sort(),
    ).toEqual(['m2', 'm9']);
    i.remove(['m2']);
    expect(i.search({ text: 'cake', k: 10 }).map((h) => h.id)).toEqual(['m9']);
    i.clear();
    expect(i.search({ text: 'cake', k: 10 })).toEqual([]);
  });
});

describe.each(IMPLEMENTATIONS)('%s: pages, totals and filters', (_name, make) => {
  const many = (): Index => {
    const i = make();
    i.add(
      Array.from({ length: 30 }, (_, n) => ({
        id: `d${n}`,
        kind: n % 3 === 0 ? ('passage' as const) : ('message' as const),
        text: n % 2 === 0 ? `coffee ${'and tea '.repeat(n % 5)}` : `coffee with milk ${n}`,
        at: n,
        tag: n % 3 === 0 ? 'document' : n % 2 === 0 ? 'user' : 'assistant',
      })),
    );
    return i;
  };

  it('R30: searchPage returns the best k hits and the total of all matches', () => {
    const i = many();
    const all = i.search({ text: 'coffee', k: 1000 });
    const page = i.searchPage({ text: 'coffee', k: 5 });
    expect(all).toHaveLength(30);
    expect(page.total).toBe(30);
    expect(page.hits).toEqual(all.slice(0, 5));
  });

  it('R30: exclusions and per-kind tags are filtered before the best k are chosen', () => {
    const i = many();
    const exclude = ['d1', 'd2', 'd4'];
    const page = i.searchPage({
      text: 'coffee',
      k: 3,
      exclude,
      tagsByKind: { message: ['assistant'] },
    });
    const expected = i
      .search({ text: 'coffee', k: 1000 })
      .filter((h) => !exclude.includes(h.id))
      .filter((h) => h.kind === 'passage' || Number(h.id.slice(1)) % 2 === 1);
    expect(page.total).toBe(expected.length);
    expect(page.hits).toEqual(expected.slice(0, 3));
  });
});

describe('Bm25LexicalIndex against MiniSearch (seeded differential)', () => {
  const vocabulary = [
    'apple',
    'pear',
    'plum',
    'kiwi',
    'fig',
    'lime',
    'melon',
    'grape',
    'cherry',
    'peach',
    '苹果',
    '香蕉',
    '咖啡',
    '朋友',
  ];
  const seeded = (seed: number) => {
    let a = seed;
    return () => (a = (Math.imul(a, 1103515245) + 12345) >>> 0) / 2 ** 32;
  };

  it('R30: same hits, order and scores as MiniSearch 7 for random corpora, edits and queries', () => {
    for (const seed of [1, 7, 42]) {
      const r = seeded(seed);
      const word = () => vocabulary[Math.floor(Math.pow(r(), 2) * vocabulary.length)]!;
      const ours = new Bm25LexicalIndex();
      const reference = new MiniSearchLexicalIndex();
      const live = new Map<string, LexicalDoc>();
      for (let step = 0; step < 600; step += 1) {
        const id = `d${Math.floor(r() * 150)}`;
        if (r() < 0.85) {
          const text = Array.from({ length: 1 + Math.floor(r() * 9) }, word).join(' ');
          const doc: LexicalDoc = {
            id,
            kind: r() < 0.8 ? 'message' : 'passage',
            text,
            at: step,
            tag: r() < 0.5 ? 'user' : 'assistant',
          };
          // Re-adding moves a document to the end, as in both indexes (ties follow add order).
          live.delete(id);
          live.set(id, doc);
          ours.add([doc]);
        } else {
          live.delete(id);
          ours.remove([id]);
        }
      }
      // A fresh reference: MiniSearch's lazily vacuumed postings would count removed documents.
      reference.add([...live.values()]);
      for (let q = 0; q < 40; q += 1) {
        const text = Array.from({ length: 1 + Math.floor(r() * 3) }, word).join(' ');
        const query = { text, k: 1 + Math.floor(r() * 40), from: q % 4 === 0 ? 100 : undefined };
        const got = ours.searchPage(query);
        const want = reference.searchPage(query);
        expect(got.total).toBe(want.total);
        expect(got.hits.map((h) => h.id)).toEqual(want.hits.map((h) => h.id));
        got.hits.forEach((h, n) => expect(h.score).toBeCloseTo(want.hits[n]!.score, 9));
      }
    }
  });
});
