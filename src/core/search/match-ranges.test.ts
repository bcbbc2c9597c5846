import { describe, expect, it } from 'vitest';
import { highlightTerms, matchRanges } from './match-ranges';
import { markedSegments } from './marked-segments';

const marked = (text: string, query: string) =>
  matchRanges(text, highlightTerms(query)).map((r) => text.slice(r.start, r.end));

describe('matchRanges (U209)', () => {
  it('U209: marks whole words whose stem the query names, case-insensitively', () => {
    expect(marked('She was Painting; he painted it.', 'paint')).toEqual(['Painting', 'painted']);
    expect(marked('Two birthdays this May', 'Birthday')).toEqual(['birthdays']);
  });

  it('U209: folds as the lexical tokenizer does: case, NFKC and composed accents, never accents away', () => {
    // The word search does not find `café` for `cafe` (nor the reverse), so neither is marked.
    expect(marked('Le Café du coin', 'cafe')).toEqual([]);
    expect(marked('the cafe downstairs', 'CAFÉ')).toEqual([]);
    expect(marked('Le Café du coin', 'CAFÉ')).toEqual(['Café']);
    // A decomposed é (e + U+0301) is the same word as a composed one, either way round.
    expect(marked('Le Cafe\u0301 du coin', 'café')).toEqual(['Cafe\u0301']);
    expect(marked('Le Café du coin', 'cafe\u0301')).toEqual(['Café']);
    // NFKC: full-width letters and the ﬁ ligature are their plain letters.
    expect(marked('ＣＡＦＥ at noon', 'cafe')).toEqual(['ＣＡＦＥ']);
    expect(marked('the ﬁle is open', 'file')).toEqual(['ﬁle']);
    expect(marked('Ελλάδα και Ελλαδα', 'ελλάδα')).toEqual(['Ελλάδα']);
  });

  it('U209: an empty query or one of stop words only marks nothing', () => {
    expect(matchRanges('anything at all', highlightTerms(''))).toEqual([]);
    expect(matchRanges('the cat is on the mat', highlightTerms('the is on'))).toEqual([]);
    expect(matchRanges('', highlightTerms('cat'))).toEqual([]);
  });

  it('U209: Han bigrams overlap into one range; offsets hold past astral characters', () => {
    const text = '😀我的生日快乐';
    const ranges = matchRanges(text, highlightTerms('生日 日快'));
    expect(ranges.map((r) => text.slice(r.start, r.end))).toEqual(['生日快']);
    expect(marked('🎂 birthday 🎂 party', 'party')).toEqual(['party']);
  });

  it('U209: HTML-like text is words like any other and stays text in the segments', () => {
    const text = '<img src=x onerror=alert(1)> <b>bold</b> idea';
    expect(marked(text, 'bold alert')).toEqual(['alert', 'bold']);
    const segments = markedSegments(text, matchRanges(text, highlightTerms('bold')));
    expect(segments.map((s) => s.text).join('')).toBe(text);
    expect(segments.filter((s) => s.marked).map((s) => s.text)).toEqual(['bold']);
  });

  it('U209: adjacent matches stay separate words, sorted, never overlapping', () => {
    const text = 'kids kid children';
    const ranges = matchRanges(text, highlightTerms('child'));
    expect(ranges.map((r) => text.slice(r.start, r.end))).toEqual(['kids', 'kid', 'children']);
    for (let i = 1; i < ranges.length; i += 1)
      expect(ranges[i]!.start).toBeGreaterThan(ranges[i - 1]!.end);
  });
});

describe('markedSegments (U209)', () => {
  it('U209: joins back to the text; no ranges gives one plain segment', () => {
    expect(markedSegments('plain', [])).toEqual([{ text: 'plain', marked: false }]);
    expect(markedSegments('a bc d', [{ start: 2, end: 4 }])).toEqual([
      { text: 'a ', marked: false },
      { text: 'bc', marked: true },
      { text: ' d', marked: false },
    ]);
  });
});
