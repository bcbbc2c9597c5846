import { describe, expect, it } from 'vitest';
import { tokenize } from './tokenize';

describe('tokenize', () => {
  it('R1: English words are lowercased, stop words dropped, plurals folded', () => {
    expect(tokenize('The Birthdays of my CATS, and a party!')).toEqual([
      'birthday',
      'cat',
      'party',
    ]);
  });

  it('R1: a Chinese sentence yields Han bigrams that contain the query word', () => {
    const doc = tokenize('我的生日是五月');
    expect(doc).toContain('生日');
    expect(doc).toContain('五月');
    for (const t of tokenize('生日')) expect(doc).toContain(t);
  });

  it('R1: a lone Han character is a term; mixed scripts split at the boundary', () => {
    expect(tokenize('猫')).toEqual(['猫']);
    const mixed = tokenize('我喜欢Python编程');
    expect(mixed).toContain('python');
    expect(mixed).toContain('编程');
  });

  it('R1: full-width letters and digits are normalised', () => {
    expect(tokenize('ＡＢＣ ２０２４')).toEqual(['abc', '2024']);
  });

  it('R1: the fast path for space-separated text splits exactly like Intl.Segmenter', () => {
    const samples = [
      "It's 3.14, not 3,14 — e.g. the U.S.A's well-known foo_bar; naïve café résumé!",
      'Numbers 1,000,000 and 2024-05-01, emails ana@example.com, urls https://x.org/a?b=c',
      "Don’t stop… won't; 'quoted' \"double\" (paren) [brackets] {braces} #tag @name 😀 ok",
      'Ελληνικά и русский текст, 한국어 문장, العربية',
    ];
    for (const text of samples) {
      // A Han character sends the whole text through the segmenter: compare the two paths.
      expect(tokenize(`${text} 猫`)).toEqual([...tokenize(text), '猫']);
    }
  });

  it('V22: chat spellings and "children" share a term with the plain word', () => {
    expect(tokenize('Got any fave styles?')).toEqual(tokenize('got favorite style'));
    expect(tokenize('my kids')).toEqual(tokenize('my children'));
    expect(tokenize('my mom and dad')).toEqual(tokenize('my mother and father'));
  });
});
