import { describe, expect, it } from 'vitest';
import type { LexicalDoc } from '../../core/ports/lexical-index';
import { MiniSearchLexicalIndex } from './minisearch-lexical-index';

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

function index(): MiniSearchLexicalIndex {
  const i = new MiniSearchLexicalIndex();
  i.add(docs);
  return i;
}

describe('MiniSearchLexicalIndex', () => {
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
    const inc = new MiniSearchLexicalIndex();
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
    const fresh = new MiniSearchLexicalIndex();
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
