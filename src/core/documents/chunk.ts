import { estimateTokens } from '../tokens/estimate-tokenizer';
import type { Chars, Tokens } from '../units';
import type { DocumentSection, ParsedDocument } from './parsed-document';
import { textUnits, wordTailStart, type Measure, type TextUnit } from './text-units';

/** Sizes of the chunker, in tokens as `measure` counts them. */
export interface ChunkOptions {
  /** Hard upper bound of one chunk. */
  maxTokens: Tokens;
  /** Upper bound of the text a chunk repeats from the end of the previous one. */
  overlapTokens: Tokens;
  /**
   * Counts tokens. The default is the core's conservative estimator (chars/3, Han ×1.5, +10 %),
   * which is subadditive, so the bound holds for the whole chunk, not only its parts.
   */
  measure: Measure;
  /**
   * A chunk already this full (fraction of `maxTokens`) is closed before a new paragraph that
   * would not fit whole, so cuts prefer paragraph boundaries.
   */
  paragraphFill: number;
}

/**
 * Defaults chosen for a 4k-token window (ADR 0051): 256 estimated tokens is ~700 English chars
 * (~170 real tokens) or ~155 Han chars; five search hits then cost ~1k tokens of the prompt.
 * The overlap is 15 % of a chunk, about one sentence.
 */
export const DEFAULT_CHUNK_OPTIONS: ChunkOptions = {
  maxTokens: 256,
  overlapTokens: 38,
  measure: estimateTokens,
  paragraphFill: 0.6,
};

/** Characters of a section the chunker handles in one go (a few ms of work). */
const WINDOW_CHARS = 16_384;

/** One passage-to-be: an exact slice of the document text with where it came from. */
export interface DocumentChunk {
  /** 0-based position in the document. */
  index: number;
  /** Exactly `document.text.slice(start, end)`. */
  text: string;
  start: Chars;
  end: Chars;
  page?: number;
  headingPath: readonly string[];
  tokens: Tokens;
}

/**
 * Splits a parsed document into overlapping chunks that follow its structure.
 *
 * A chunk never crosses a section (heading or page); inside a section it is a run of whole
 * sentences (`.!?` and `。！？`), cut preferably at paragraph breaks. After a cut inside a
 * paragraph the next chunk starts with the previous chunk's last sentences (or last words) up to
 * `overlapTokens`; a cut at a paragraph break has no overlap. Sentences longer than a chunk are
 * cut at line breaks, then between words, never inside a word (except a single "word" longer
 * than a whole chunk). It is a generator so a caller on a UI thread can yield between chunks
 * (spec D10–D17).
 */
export function* iterateChunks(
  document: ParsedDocument,
  options: Partial<ChunkOptions> = {},
): Generator<DocumentChunk> {
  const opts: ChunkOptions = { ...DEFAULT_CHUNK_OPTIONS, ...options };
  const overlap = Math.min(opts.overlapTokens, opts.maxTokens / 2);
  let index = 0;
  for (const section of joinBareHeadings(document.text, document.sections)) {
    for (const [ws, we] of windows(document.text, section.start, section.end)) {
      // Pieces of over-long sentences leave room for the overlap, so long runs still overlap.
      const units = textUnits(document.text, ws, we, opts.maxTokens - overlap, opts.measure);
      for (const [start, end] of packSection(document.text, units, opts, overlap)) {
        const text = document.text.slice(start, end);
        const chunk: DocumentChunk = {
          index,
          text,
          start,
          end,
          headingPath: section.headingPath,
          tokens: opts.measure(text),
        };
        if (section.page !== undefined) chunk.page = section.page;
        yield chunk;
        index += 1;
      }
    }
  }
}

/**
 * Splits a section into windows of about {@link WINDOW_CHARS} so the chunker's work between two
 * chunks stays small: at the first paragraph break after the window size, else (a paragraph of
 * tens of thousands of characters, a one-line file) at the last line break, else the last
 * whitespace, else a code point boundary within twice the size (X168). Each search looks at
 * most one window ahead, so the whole split is linear.
 */
function* windows(text: string, start: number, end: number): Generator<[number, number]> {
  const paragraphBreak = /\n[ \t\r]*\n/g;
  let from = start;
  while (end - from > 2 * WINDOW_CHARS) {
    const ahead = text.slice(from + WINDOW_CHARS, from + 2 * WINDOW_CHARS);
    paragraphBreak.lastIndex = 0;
    const m = paragraphBreak.exec(ahead);
    if (m !== null) {
      yield [from, from + WINDOW_CHARS + m.index];
      from += WINDOW_CHARS + m.index + m[0].length;
      continue;
    }
    let cut = ahead.lastIndexOf('\n');
    if (cut < 0) cut = Math.max(ahead.lastIndexOf(' '), ahead.lastIndexOf('\t'));
    let to = from + WINDOW_CHARS + (cut < 0 ? ahead.length : cut + 1);
    const code = text.charCodeAt(to - 1);
    if (code >= 0xd800 && code <= 0xdbff) to += 1;
    yield [from, to];
    from = to;
  }
  yield [from, end];
}

/** {@link iterateChunks}, collected. */
export function chunkDocument(
  document: ParsedDocument,
  options: Partial<ChunkOptions> = {},
): DocumentChunk[] {
  return Array.from(iterateChunks(document, options));
}

/**
 * A section that holds nothing but its heading (`# Guide` right before `## Install`) is joined
 * to the section nested under it, so no passage is a lone heading.
 */
function joinBareHeadings(text: string, sections: readonly DocumentSection[]): DocumentSection[] {
  const out: DocumentSection[] = [];
  let carryStart: number | null = null;
  for (const [k, section] of sections.entries()) {
    const start: number = carryStart ?? section.start;
    carryStart = null;
    const next = sections[k + 1];
    // Bare: nothing but marks after the heading's own line (`# Guide`, `Guide\n=====`).
    const newline = section.text.indexOf('\n');
    const rest = newline < 0 ? '' : section.text.slice(newline + 1);
    const bare = section.heading !== undefined && !/[\p{L}\p{N}]/u.test(rest);
    const nested =
      next !== undefined &&
      next.page === section.page &&
      next.headingPath.length > section.headingPath.length &&
      section.headingPath.every((h, i) => next.headingPath[i] === h);
    if (bare && nested) carryStart = start;
    else
      out.push(
        start === section.start
          ? section
          : { ...section, start, text: text.slice(start, section.end) },
      );
  }
  return out;
}

/** Greedy packing of one section's units into `[start, end)` chunk ranges. */
function packSection(
  text: string,
  units: TextUnit[],
  opts: ChunkOptions,
  overlap: Tokens,
): [number, number][] {
  const out: [number, number][] = [];
  // Tokens from the start of unit 0 to the end of unit k, gaps included (prefix sums).
  const upTo: number[] = [];
  let running = 0;
  for (const [k, u] of units.entries()) {
    running += (k === 0 ? 0 : u.gapTokens) + u.tokens;
    upTo.push(running);
  }
  const paragraphEnd = paragraphEnds(units);
  /** Tokens of units [a, b] inclusive. */
  const span = (a: number, b: number): number =>
    (upTo[b] ?? 0) - (upTo[a] ?? 0) + (units[a]?.tokens ?? 0);

  let open = false;
  let startPos = 0; // where the open chunk starts (inside unit `first - 1` when it opens with a word tail)
  let first = 0; // first whole unit of the open chunk
  let tokens = 0;
  let i = 0;
  while (i < units.length) {
    const u = units[i] as TextUnit;
    if (!open) {
      open = true;
      startPos = u.start;
      first = i;
      tokens = u.tokens;
      i += 1;
      continue;
    }
    const full = tokens + u.gapTokens + u.tokens > opts.maxTokens;
    const paragraphWontFit =
      u.paragraphStart &&
      tokens >= opts.paragraphFill * opts.maxTokens &&
      tokens + u.gapTokens + span(i, paragraphEnd[i] ?? i) > opts.maxTokens;
    if (!full && !paragraphWontFit) {
      tokens += u.gapTokens + u.tokens;
      i += 1;
      continue;
    }
    out.push([startPos, (units[i - 1] as TextUnit).end]);
    // A cut at a paragraph break starts clean; a cut inside a paragraph repeats its tail.
    const next = u.paragraphStart
      ? null
      : overlapStart(text, units, span, first, i - 1, overlap, opts.measure);
    open = next !== null && next.tokens + u.gapTokens + u.tokens <= opts.maxTokens;
    if (next !== null && open) ({ startPos, first, tokens } = next);
  }
  const last = units[units.length - 1];
  if (open && last !== undefined) out.push([startPos, last.end]);
  return out;
}

/**
 * The start of the next chunk after a cut behind unit `last`: the trailing whole units of the
 * closed chunk that fit `overlap` (never all of them), else a word tail of the last unit, else
 * null (no overlap).
 */
function overlapStart(
  text: string,
  units: TextUnit[],
  span: (a: number, b: number) => number,
  first: number,
  last: number,
  overlap: Tokens,
  measure: Measure,
): { startPos: number; first: number; tokens: number } | null {
  let k = last + 1;
  while (k - 1 > first && span(k - 1, last) <= overlap) k -= 1;
  if (k <= last) return { startPos: (units[k] as TextUnit).start, first: k, tokens: span(k, last) };
  const u = units[last] as TextUnit;
  const at = wordTailStart(text, u.start, u.end, overlap, measure);
  if (at >= u.end || at <= u.start) return null;
  // The tail opens the next chunk; its first whole unit is the one after `last`.
  return { startPos: at, first: last + 1, tokens: measure(text.slice(at, u.end)) };
}

/** For each unit, the index of the last unit of its paragraph. */
function paragraphEnds(units: TextUnit[]): number[] {
  const ends: number[] = new Array<number>(units.length);
  let end = units.length - 1;
  for (let k = units.length - 1; k >= 0; k -= 1) {
    ends[k] = end;
    if (units[k]?.paragraphStart) end = k - 1;
  }
  return ends;
}
