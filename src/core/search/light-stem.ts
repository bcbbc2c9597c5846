/**
 * A light English stemmer for the lexical index (R-tuning, ADR 0071, 0073): strips `-ing`, `-ed`
 * and `-ly`, then `-ship` and `-ion`, and a final `e`, and undoubles a final consonant, so `painting`, `painted` and `paint`
 * share a term, as do `hiking`/`hike`/`hikes` and `researching`/`research`. Deliberately weaker
 * than Porter: words of three letters or fewer are left alone, and a four-letter word loses only a
 * silent final `e` (`hike`, `make`, `ride`, `love` meet `hiking`, `making`, `riding`, `loving`,
 * ADR 0182), so names and short words stay whole.
 * It runs on documents and queries alike, so over-stemming only merges, never loses, matches.
 */
export function lightStem(word: string): string {
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
  if (word.length === 4) return /[^aeiou]e$/.test(word) ? word.slice(0, -1) : word;
  let w = word;
  if (w.endsWith('ing') && w.length > 5) w = w.slice(0, -3);
  else if (w.endsWith('ed') && w.length > 4) w = w.slice(0, -2);
  else if (w.endsWith('ly') && w.length > 5) w = w.slice(0, -2);
  // Derivational `-ship` and `-ion` (ADR 0073): `mentorship`/`mentor`, `promotion`/`promote`.
  if (w.endsWith('ship') && w.length > 7) w = w.slice(0, -4);
  if (w.endsWith('ion') && w.length > 6) w = w.slice(0, -3);
  if (/([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss|zz)$/.test(w)) w = w.slice(0, -1);
  // A silent final e goes (`hike` = `hik-ing`); a vowel before it keeps it (`coffee`, `canoe`).
  if (/[^aeiou]e$/.test(w) && w.length > 4) w = w.slice(0, -1);
  return w;
}
