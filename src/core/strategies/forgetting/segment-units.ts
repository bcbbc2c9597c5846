/**
 * Splits text into the units of the forgetting model (seed 001): one unit per Han character
 * (and per kana, which is not space-delimited either), one unit per word in space-delimited
 * scripts. Mixed text is segmented run by run, so "我用Python写代码" gives 我 用 python 写 代 码.
 *
 * The result is a list of segments; punctuation, symbols and line breaks end a segment, and
 * grams never span two segments (a gram across "。" or "?" is not a keyword). Whitespace,
 * apostrophes and hyphens separate words inside a segment. Text is NFKC-normalized and
 * lower-cased first, so full-width letters and capitals match their plain forms.
 */

// Scripts written without spaces between words: each character is its own unit.
const PER_CHARACTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const WORD_CHARACTER = /[\p{L}\p{N}\p{M}]/u;
const WORD_SEPARATOR = /[ \t\u00a0\u3000'’\-‐]/u;

/** Units of `text`, grouped in segments; empty segments are dropped. */
export function segmentUnits(text: string): string[][] {
  const segments: string[][] = [];
  let segment: string[] = [];
  let word = '';
  const endWord = (): void => {
    if (word !== '') segment.push(word);
    word = '';
  };
  const endSegment = (): void => {
    endWord();
    if (segment.length > 0) segments.push(segment);
    segment = [];
  };
  for (const ch of text.normalize('NFKC').toLowerCase()) {
    if (PER_CHARACTER.test(ch)) {
      endWord();
      segment.push(ch);
    } else if (WORD_CHARACTER.test(ch)) {
      word += ch;
    } else if (WORD_SEPARATOR.test(ch)) {
      endWord();
    } else {
      endSegment();
    }
  }
  endSegment();
  return segments;
}

/** The number of units in `text` (the seed's m, the length of a memory). */
export function countUnits(text: string): number {
  return segmentUnits(text).reduce((sum, segment) => sum + segment.length, 0);
}
