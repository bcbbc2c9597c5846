/**
 * U209 differential test: a search hit's words are marked exactly when the word search matched
 * them. Random documents and queries over a vocabulary of accent, case, NFKC, plural, stem and
 * Han variants; for each query, the documents the BM25 index returns are the documents in which
 * `matchRanges` marks something (ADR 0175).
 */
import { describe, expect, it } from 'vitest';
import { highlightTerms, matchRanges } from '../../core/search/match-ranges';
import { pick, seededRandom } from '../../testing/seeded-random';
import { Bm25LexicalIndex } from './bm25-lexical-index';

const VOCABULARY = [
  'café',
  'cafe',
  'CAFÉ',
  'cafe\u0301',
  'ＣＡＦＥ',
  'naïve',
  'naive',
  'Ελλάδα',
  'Ελλαδα',
  'ёлка',
  'елка',
  'Straße',
  'strasse',
  'ﬁle',
  'file',
  'birthdays',
  'Birthday',
  'painting',
  'painted',
  'kids',
  'children',
  'the',
  'is',
  'and',
  '生日',
  '我的生日',
  '快乐',
  '猫',
];

function randomWords(random: () => number, most: number): string {
  const n = 1 + Math.floor(random() * most);
  return Array.from({ length: n }, () => pick(random, VOCABULARY)).join(
    random() < 0.5 ? ' ' : ', ',
  );
}

describe('highlights agree with the word search (U209)', () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    it(`U209: seed ${seed}: a document is found by words exactly when a word of it is marked`, () => {
      const random = seededRandom(seed);
      const index = new Bm25LexicalIndex();
      const texts = new Map<string, string>();
      for (let i = 0; i < 60; i += 1) {
        const text = randomWords(random, 6);
        texts.set(`d${i}`, text);
        index.add([{ id: `d${i}`, kind: 'passage', text, at: i, tag: 'import' }]);
      }
      for (let q = 0; q < 40; q += 1) {
        const query = randomWords(random, 2);
        const found = new Set(index.search({ text: query, k: 1_000 }).map((h) => h.id));
        const terms = highlightTerms(query);
        const marked = new Set(
          [...texts].filter(([, text]) => matchRanges(text, terms).length > 0).map(([id]) => id),
        );
        expect([...marked].sort(), `query ${JSON.stringify(query)}`).toEqual([...found].sort());
      }
    });
  }
});
