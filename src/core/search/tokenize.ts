/**
 * The search tokenizer for English and Chinese (and other space-less scripts `Intl.Segmenter`
 * knows). Default tokenizers of MiniSearch, FlexSearch and Orama find nothing in Chinese text
 * (TECH_NOTES), so the lexical index uses this one for documents and queries alike.
 *
 * Terms are: the word-like segments of `Intl.Segmenter` (word granularity), lowercased and NFKC
 * normalised, minus a short stop-word list, English plurals folded (`birthdays` → `birthday`) and
 * a few chat spellings made plain (`fave` → `favorite`, `kids` → `child`);
 * plus every Han-character bigram of each run of Han characters, so a query still matches when
 * the segmenter cut the document differently (`生日` in `我的生日是五月`). A lone Han character
 * segment stays a term of its own (`猫`).
 */

import { lightStem } from './light-stem';

const SEGMENTER = new Intl.Segmenter('zh', { granularity: 'word' });
const HAN_RUN = /\p{Script=Han}+/gu;
const HAS_HAN = /\p{Script=Han}/u;

/** Very common words that carry no meaning for retrieval (English and Chinese function words). */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  ...'a an and are as at be but by do does for from had has have he her his i if in into is it its me my no not of on or our she so than that the their them then there these they this to too us was we were what when where which who will with you your did how why would could should can like likely any some about'.split(
    ' ',
  ),
  ...'的 了 是 在 和 也 就 都 而 及 与 着 或 之 吗 呢 吧 啊'.split(' '),
]);

/** Folds a regular English plural to its singular; leaves `ss`, `us`, `is` and short words. */
function foldPlural(word: string): string {
  if (word.length <= 3 || !word.endsWith('s')) return word;
  if (/(ss|us|is)$/.test(word)) return word;
  if (word.endsWith("'s")) return word.slice(0, -2);
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  return word.slice(0, -1);
}

/**
 * Informal chat spellings, British spellings and one irregular plural folded onto one plain word
 * (V22, ADR 0073), so "fave styles" finds "favorite style" and "children" finds "kids".
 */
const PLAIN_WORDS: ReadonlyMap<string, string> = new Map([
  ['children', 'child'],
  ['kid', 'child'],
  ['fave', 'favorite'],
  ['fav', 'favorite'],
  ['favourite', 'favorite'],
  ['mom', 'mother'],
  ['mum', 'mother'],
  ['dad', 'father'],
  ['pic', 'photo'],
  ['bday', 'birthday'],
]);

/** Scripts written without spaces, which need the segmenter's dictionary. */
const NEEDS_DICTIONARY =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
/**
 * UAX #29 words of space-separated text, for the fast path: letters, digits, marks and `_`,
 * joined by an apostrophe or `.` between them (`it's`, `e.g`, `3.14`) and `,` between digits.
 * `Intl.Segmenter` is ~20× slower, and most memories are plain English.
 */
const SPACED_WORD = /[\p{L}\p{N}\p{M}_]+(?:(?:['’.]|(?<=\p{N}),(?=\p{N}))[\p{L}\p{N}\p{M}_]+)*/gu;

function* words(normalized: string): Generator<string> {
  if (!NEEDS_DICTIONARY.test(normalized)) {
    for (const m of normalized.matchAll(SPACED_WORD)) yield m[0];
    return;
  }
  for (const seg of SEGMENTER.segment(normalized)) if (seg.isWordLike) yield seg.segment;
}

/**
 * The words of `text` with their offsets, split exactly as {@link tokenize} splits them, so a
 * caller can point at the words a search matched (U209).
 */
export function* wordSpans(text: string): Generator<{ word: string; start: number }> {
  if (!NEEDS_DICTIONARY.test(text)) {
    for (const m of text.matchAll(SPACED_WORD)) yield { word: m[0], start: m.index };
    return;
  }
  for (const seg of SEGMENTER.segment(text))
    if (seg.isWordLike) yield { word: seg.segment, start: seg.index };
}

/** Splits `text` into index terms (with repeats, so BM25 sees term frequencies). */
export function tokenize(text: string): string[] {
  const normalized = text.normalize('NFKC').toLowerCase();
  const terms: string[] = [];
  for (const word of words(normalized)) {
    if (STOP_WORDS.has(word)) continue;
    if (HAS_HAN.test(word)) {
      // Multi-character Han words are covered by the bigrams below unless longer than two.
      if (word.length !== 2) terms.push(word);
    } else {
      const folded = foldPlural(word);
      terms.push(lightStem(PLAIN_WORDS.get(folded) ?? folded));
    }
  }
  for (const match of normalized.matchAll(HAN_RUN)) {
    const run = match[0];
    for (let i = 0; i + 1 < run.length; i += 1) terms.push(run.slice(i, i + 2));
  }
  return terms;
}
