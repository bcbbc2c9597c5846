/**
 * Memoized token counting for prompt assembly (C9). A prompt is mostly the same lines every
 * call (instructions, tool specs, blocks, memories, queued messages), and exact BPE tokenizers
 * in JS are slow (the Llama 3 one takes ~20 ms for the 2 k-char tools section). So text is cut
 * into pieces after each run of newlines that is followed by a non-space character, each piece
 * is counted once and remembered, and a text's count is the sum of its pieces.
 *
 * Why the sum is right: regex-pretokenized BPE (Llama 3, Qwen, GPT-4 style) never merges across
 * such a cut — a newline run ends a pretoken there — so the sum equals the whole-string count
 * (tested against Llama 3). For other tokenizers a cut can only lose a merge, so the sum
 * over-counts: the plan stays inside the real window (ADR 0033).
 */
import type { Tokenizer } from '../ports/tokenizer';
import type { Tokens } from '../units';

/** Pieces remembered before the memo is cleared (bounded memory). */
export const PIECE_MEMO_ENTRIES = 8192;

/** Cuts `text` after every newline run followed by a non-whitespace character. */
export function splitPieces(text: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  let i = text.indexOf('\n');
  while (i !== -1) {
    let end = i;
    while (text[end] === '\n') end += 1;
    const next = text[end];
    if (next !== undefined && !/\s/.test(next)) {
      pieces.push(text.slice(start, end));
      start = end;
    }
    i = text.indexOf('\n', end);
  }
  pieces.push(text.slice(start));
  return pieces;
}

/** A {@link Tokenizer} that counts piecewise over another one, with a bounded memo. */
export class PieceCounter implements Tokenizer {
  readonly name: string;
  readonly exact: boolean;
  private readonly memo = new Map<string, Tokens>();
  private readonly overhead = new Map<string, Tokens>();

  constructor(readonly base: Tokenizer) {
    this.name = `${base.name} (piecewise)`;
    this.exact = base.exact;
  }

  private piece(text: string): Tokens {
    let tokens = this.memo.get(text);
    if (tokens === undefined) {
      if (this.memo.size >= PIECE_MEMO_ENTRIES) this.memo.clear();
      tokens = this.base.count(text);
      this.memo.set(text, tokens);
    }
    return tokens;
  }

  count(text: string): Tokens {
    if (text === '') return 0;
    let sum = 0;
    for (const piece of splitPieces(text)) sum += this.piece(piece);
    return sum;
  }

  countGeneration(): Tokens {
    return this.base.countGeneration?.() ?? this.countMessage('assistant', '');
  }

  /** The template overhead of a role (`countMessage(role, '')`) plus the content's count. */
  countMessage(role: string, content: string): Tokens {
    let overhead = this.overhead.get(role);
    if (overhead === undefined) {
      overhead = this.base.countMessage(role, '') - this.base.count('');
      this.overhead.set(role, overhead);
    }
    return overhead + this.count(content);
  }
}

const counters = new WeakMap<Tokenizer, PieceCounter>();

/** The shared piece counter of a tokenizer (one memo per tokenizer object). */
export function pieceCounter(tokenizer: Tokenizer): PieceCounter {
  if (tokenizer instanceof PieceCounter) return tokenizer;
  let counter = counters.get(tokenizer);
  if (!counter) {
    counter = new PieceCounter(tokenizer);
    counters.set(tokenizer, counter);
  }
  return counter;
}
