import { tokenize, wordSpans } from './tokenize';

/** A half-open range `[start, end)` of UTF-16 code units in a text. */
export interface TextRange {
  start: number;
  end: number;
}

const HAN = /\p{Script=Han}/u;

/**
 * The terms a query matches, tokenised exactly as the lexical search tokenises it (NFKC and
 * lowercase, stop words dropped, plurals and stems folded, Han bigrams): `Birthdays` →
 * `birthday`. Accents are kept, as the index keeps them (ADR 0175): `cafe` does not mark
 * `café`, because the word search does not find `café` for `cafe` either.
 */
export function highlightTerms(query: string): ReadonlySet<string> {
  return new Set(tokenize(query));
}

/**
 * The ranges of `text` whose words match `terms` (U209): a whole word when its term is one of
 * them (`painted` for a query `painting`), and each Han bigram a term names. A word is marked
 * exactly when the lexical index would match it, so a mark never claims a word match the search
 * did not make. Ranges are sorted, and overlapping or touching ones merged, so they can be cut
 * into segments directly. The text is never parsed as markup: `<b>` is two characters and a
 * word like any other.
 */
export function matchRanges(text: string, terms: ReadonlySet<string>): TextRange[] {
  if (terms.size === 0 || text === '') return [];
  const found: TextRange[] = [];
  for (const { word, start } of wordSpans(text)) {
    const end = start + word.length;
    if (!HAN.test(word)) {
      if (tokenize(word).some((t) => terms.has(t))) found.push({ start, end });
      continue;
    }
    if (terms.has(word)) found.push({ start, end });
    // Bigrams over the segmenter's cut: `生日` in `我的生日是五月` matches however it was split.
    const chars = [...word];
    let at = start;
    for (let i = 0; i < chars.length; i += 1) {
      const first = chars[i] ?? '';
      const pair = first + (chars[i + 1] ?? '');
      if (i + 1 < chars.length && terms.has(pair)) found.push({ start: at, end: at + pair.length });
      else if (chars.length > 1 && terms.has(first) && HAN.test(first))
        found.push({ start: at, end: at + first.length });
      at += first.length;
    }
  }
  return merge(found);
}

function merge(ranges: TextRange[]): TextRange[] {
  const sorted = [...ranges].sort((a, b) => a.start - b.start || a.end - b.end);
  const out: TextRange[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r.start <= last.end) last.end = Math.max(last.end, r.end);
    else out.push({ ...r });
  }
  return out;
}
