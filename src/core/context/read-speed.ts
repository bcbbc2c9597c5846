/**
 * How fast this device's engine reads a prompt, learned from the replies it wrote (A43): the
 * median rate of the latest replies of one model that read enough to time, from what each reply's
 * stats say it read and how long that took. What a user waits for on the CPU is reading, not
 * writing (ADR 0210), so the chat says it before the first word: "reading 1,240 new tokens —
 * about 1 min 35 s on this device".
 */
import type { ReplyStats } from '../model';
import type { Tokens } from '../units';

export interface ReadSpeed {
  tokensPerSecond: number;
  /** Replies the rate is the median of. */
  samples: number;
}

/** Fewer tokens than this time the request's overhead more than the reading. */
export const MIN_TIMED_READ: Tokens = 64;
/** The latest replies that count: the device's speed now, not last month's. */
const LATEST = 8;

/** The read rate of `model` over `stats` (oldest first), or null before a reply could be timed. */
export function readSpeed(
  stats: readonly (ReplyStats | undefined)[],
  model: string,
): ReadSpeed | null {
  const rates: number[] = [];
  for (let i = stats.length - 1; i >= 0 && rates.length < LATEST; i -= 1) {
    const s = stats[i];
    if (!s || s.model !== model || s.readTokens === undefined || !s.readMs) continue;
    if (s.readTokens < MIN_TIMED_READ) continue;
    rates.push(s.readTokens / (s.readMs / 1000));
  }
  if (rates.length === 0) return null;
  rates.sort((a, b) => a - b);
  const mid = Math.floor(rates.length / 2);
  const median = rates.length % 2 === 1 ? rates[mid]! : (rates[mid - 1]! + rates[mid]!) / 2;
  return { tokensPerSecond: median, samples: rates.length };
}

/** Milliseconds to read `tokens` at `speed`. */
export function expectedReadMs(speed: ReadSpeed, tokens: Tokens): number {
  return (tokens / speed.tokensPerSecond) * 1000;
}

/** "Fast replies" keeps the predicted wait for the first word near this (issue 36). */
export const FAST_FIRST_WORD_MS = 8000;
/** The share of that wait recalled memories may take: the rest is the turn's own new messages. */
const RECALL_SHARE_OF_WAIT = 0.5;

/**
 * The most automatic recall a fast reply reads (A44): what this device reads in half of
 * {@link FAST_FIRST_WORD_MS}. Null while the speed is unknown (no cap: a GPU engine says nothing
 * of what it reused, and a first reply has nothing to go by).
 */
export function fastRecallCap(speed: ReadSpeed | null): Tokens | null {
  if (!speed) return null;
  return Math.floor((speed.tokensPerSecond * FAST_FIRST_WORD_MS * RECALL_SHARE_OF_WAIT) / 1000);
}
