import type { Chars, Tokens } from '../units';

/**
 * A piece of text the chunker never cuts: a sentence, or a word-aligned piece of a sentence that
 * is too long for one chunk. Offsets index the document text; the unit holds no whitespace at
 * either end.
 */
export interface TextUnit {
  start: Chars;
  end: Chars;
  tokens: Tokens;
  /** Tokens of the whitespace between the previous unit and this one. */
  gapTokens: Tokens;
  /** True for the first unit of a paragraph. */
  paragraphStart: boolean;
}

/** Counts tokens of a text (the chunker's unit of size). */
export type Measure = (text: string) => Tokens;

/**
 * Where a sentence ends: Latin `.!?` (and `…`) followed by whitespace or the end, or CJK `。！？`
 * anywhere, each with any closing quotes/brackets that follow it.
 */
const SENTENCE_END = /(?:[.!?…]+[\p{Pf}\p{Pe}"']*(?=\s|$))|(?:[。！？]+[\p{Pf}\p{Pe}"']*)/gu;
/** A blank line (only spaces or tabs on it) separates paragraphs. */
const PARAGRAPH_BREAK = /\n[ \t\r]*\n\s*/g;
const SPACE = /\s/u;

const wordSegmenter = new Intl.Segmenter(undefined, { granularity: 'word' });

/** Narrows `[start, end)` of `text` so it neither starts nor ends with whitespace. */
export function trimRange(text: string, start: number, end: number): [number, number] {
  let a = start;
  let b = end;
  while (a < b && SPACE.test(text.charAt(a))) a += 1;
  while (b > a && SPACE.test(text.charAt(b - 1))) b -= 1;
  return [a, b];
}

/** Splits `[start, end)` of `text` into paragraph ranges (trimmed, non-empty). */
export function paragraphRanges(text: string, start: number, end: number): [number, number][] {
  const out: [number, number][] = [];
  const slice = text.slice(start, end);
  let from = 0;
  PARAGRAPH_BREAK.lastIndex = 0;
  for (let m = PARAGRAPH_BREAK.exec(slice); m !== null; m = PARAGRAPH_BREAK.exec(slice)) {
    pushTrimmed(out, text, start + from, start + m.index);
    from = m.index + m[0].length;
  }
  pushTrimmed(out, text, start + from, end);
  return out;
}

/** Splits a paragraph range into sentence ranges (trimmed, non-empty). */
export function sentenceRanges(text: string, start: number, end: number): [number, number][] {
  const out: [number, number][] = [];
  const slice = text.slice(start, end);
  let from = 0;
  SENTENCE_END.lastIndex = 0;
  for (let m = SENTENCE_END.exec(slice); m !== null; m = SENTENCE_END.exec(slice)) {
    const to = m.index + m[0].length;
    pushTrimmed(out, text, start + from, start + to);
    from = to;
  }
  pushTrimmed(out, text, start + from, end);
  return out;
}

function pushTrimmed(out: [number, number][], text: string, start: number, end: number): void {
  const [a, b] = trimRange(text, start, end);
  if (b > a) out.push([a, b]);
}

/**
 * The units of one section `[start, end)`: its sentences, with sentences longer than
 * `maxTokens` split first at line breaks, then between words (`Intl.Segmenter`, which also
 * segments Chinese into words), and only as a last resort — one "word" longer than a chunk,
 * such as a base64 blob — between code points.
 */
export function textUnits(
  text: string,
  start: number,
  end: number,
  maxTokens: Tokens,
  measure: Measure,
): TextUnit[] {
  const units: TextUnit[] = [];
  let previousEnd = -1;
  for (const [ps, pe] of paragraphRanges(text, start, end)) {
    let first = true;
    for (const [ss, se] of sentenceRanges(text, ps, pe)) {
      for (const [us, ue] of fitRange(text, ss, se, maxTokens, measure)) {
        const gapTokens = previousEnd < 0 ? 0 : measure(text.slice(previousEnd, us));
        units.push({
          start: us,
          end: ue,
          tokens: measure(text.slice(us, ue)),
          gapTokens,
          paragraphStart: first,
        });
        first = false;
        previousEnd = ue;
      }
    }
  }
  return units;
}

/** Splits a range into pieces of at most `maxTokens`, each at the best boundary available. */
function fitRange(
  text: string,
  start: number,
  end: number,
  maxTokens: Tokens,
  measure: Measure,
): [number, number][] {
  if (measure(text.slice(start, end)) <= maxTokens) return [[start, end]];
  const lines = lineRanges(text, start, end);
  if (lines.length > 1) {
    return packRanges(text, lines, maxTokens, measure).flatMap(([a, b]) =>
      fitRange(text, a, b, maxTokens, measure),
    );
  }
  const hint = { length: 0 };
  return packRanges(text, wordRanges(text, start, end), maxTokens, measure).flatMap(([a, b]) =>
    measure(text.slice(a, b)) <= maxTokens
      ? [[a, b]]
      : codePointPieces(text, a, b, maxTokens, measure, hint),
  );
}

function lineRanges(text: string, start: number, end: number): [number, number][] {
  const out: [number, number][] = [];
  let from = start;
  for (let i = start; i < end; i += 1) {
    if (text.charCodeAt(i) === 10) {
      pushTrimmed(out, text, from, i);
      from = i + 1;
    }
  }
  pushTrimmed(out, text, from, end);
  return out;
}

/**
 * Characters given to `Intl.Segmenter` at once: iterating the segments of one long string is
 * far slower than linear in V8 (100,000 characters took seconds), so a long run is segmented in
 * windows cut after a whitespace character.
 */
const SEGMENT_WINDOW = 2_048;

/** Ranges that may be cut between: each word with the punctuation and space after it. */
function wordRanges(text: string, start: number, end: number): [number, number][] {
  const out: [number, number][] = [];
  let pieceStart = start;
  for (let from = start; from < end;) {
    let to = Math.min(end, from + SEGMENT_WINDOW);
    if (to < end) {
      let cut = to;
      while (cut > from && !SPACE.test(text.charAt(cut - 1))) cut -= 1;
      // No whitespace in the window: the "word" is longer than any chunk and is cut by code
      // points anyway; only keep a surrogate pair whole.
      if (cut > from) to = cut;
      else if (isHighSurrogate(text.charCodeAt(to - 1))) to += 1;
    }
    for (const seg of wordSegmenter.segment(text.slice(from, to))) {
      const at = from + seg.index;
      if (seg.isWordLike && at > pieceStart) {
        out.push([pieceStart, at]);
        pieceStart = at;
      }
    }
    from = to;
  }
  out.push([pieceStart, end]);
  return out;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * Greedily joins consecutive ranges while the joined text stays within `maxTokens`. The measure
 * is subadditive, so the sum of the parts' tokens bounds the joined text's: while that sum fits,
 * the join fits without measuring it again (linear, where measuring every growing join was
 * quadratic in a long line); only near the limit is the joined text measured.
 */
function packRanges(
  text: string,
  ranges: [number, number][],
  maxTokens: Tokens,
  measure: Measure,
): [number, number][] {
  const out: [number, number][] = [];
  let current: [number, number] | null = null;
  let bound = 0; // ≥ measure of the current join
  let exact = false; // `bound` is the current join's own measure, not a sum of its parts
  for (const range of ranges) {
    // A range already over the limit by more than a join can take back (a space before a
    // letter, a digit run split in two: under one token each way) cannot take the next range,
    // so no join is measured (a space-less run, X177).
    if (current !== null && exact && bound > maxTokens + 2) {
      pushTrimmed(out, text, current[0], current[1]);
      current = null;
    }
    if (current === null) {
      current = [range[0], range[1]];
      bound = measure(text.slice(range[0], range[1]));
      exact = true;
      continue;
    }
    const added =
      measure(text.slice(current[1], range[0])) + measure(text.slice(range[0], range[1]));
    if (bound + added <= maxTokens) {
      current[1] = range[1];
      bound += added;
      exact = false;
      continue;
    }
    const joined = measure(text.slice(current[0], range[1]));
    if (joined <= maxTokens) {
      current[1] = range[1];
      bound = joined;
      exact = true;
    } else {
      pushTrimmed(out, text, current[0], current[1]);
      current = [range[0], range[1]];
      bound = measure(text.slice(range[0], range[1]));
      exact = true;
    }
  }
  if (current !== null) pushTrimmed(out, text, current[0], current[1]);
  return out;
}

/**
 * Cuts `[start, end)` between code points into the longest pieces within `maxTokens`: each cut
 * found by doubling then bisecting the piece length (the measure grows with the text), so a
 * 200,000-character "word" costs O(n log n), not a measure per character.
 */
function codePointPieces(
  text: string,
  start: number,
  end: number,
  maxTokens: Tokens,
  measure: Measure,
  /** The last full piece's length, kept across the calls for one run (X177). */
  hint: { length: number } = { length: 0 },
): [number, number][] {
  const out: [number, number][] = [];
  /** `at`, moved off the middle of a surrogate pair. */
  const boundary = (at: number): number =>
    at < end && at > start && isHighSurrogate(text.charCodeAt(at - 1)) ? at + 1 : at;
  const fits = (from: number, to: number): boolean => measure(text.slice(from, to)) <= maxTokens;
  let from = start;
  while (from < end) {
    let good = boundary(from + 1); // one code point always goes, even when it alone is too big
    if (good >= end || !fits(from, boundary(good + 1))) {
      if (good >= end) {
        out.push([from, end]);
        break;
      }
      out.push([from, good]);
      from = good;
      continue;
    }
    let step = 1;
    let bad = end + 1;
    // Start from the last piece's length: in a long run of alike characters it fits and one
    // more does not, so a piece costs two measures instead of a doubling and a bisection.
    if (hint.length > 1) {
      const probe = boundary(Math.min(end, from + hint.length));
      if (probe > good) {
        if (fits(from, probe)) good = probe;
        else bad = probe;
      }
    }
    while (good < end && bad > end) {
      const probe = boundary(Math.min(end, good + step));
      if (!fits(from, probe)) {
        bad = probe;
        break;
      }
      good = probe;
      if (good >= end) break;
      step *= 2;
    }
    while (bad - good > 1) {
      const mid = boundary(good + Math.floor((bad - good) / 2));
      if (mid <= good || mid >= bad) break;
      if (fits(from, mid)) good = mid;
      else bad = mid;
    }
    out.push([from, good]);
    if (good < end) hint.length = good - from; // a piece cut short by the range's end is no guide
    from = good;
  }
  return out;
}

/**
 * Where an overlap taken from the end of `[start, end)` should begin: the earliest word start
 * whose tail still fits `budget`, or `end` when not even the last word fits.
 */
export function wordTailStart(
  text: string,
  start: number,
  end: number,
  budget: Tokens,
  measure: Measure,
): number {
  let best = end;
  const starts: number[] = [];
  for (const seg of wordSegmenter.segment(text.slice(start, end))) {
    if (seg.isWordLike) starts.push(start + seg.index);
  }
  for (let k = starts.length - 1; k >= 0; k -= 1) {
    const at = starts[k] ?? end;
    if (measure(text.slice(at, end)) > budget) break;
    best = at;
  }
  return best;
}
