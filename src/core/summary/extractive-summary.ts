/**
 * The extractive recursive summary (C12, ADR 0211): what the queue manager writes when the model
 * cannot summarize. Pure and deterministic (the memory evaluation relies on it). It keeps what it
 * replaces: the previous summary's text comes first, whole while it leaves the new digest a third
 * of `maxTokens` (or its shortest line, if longer), otherwise without its oldest sentences; then a
 * digest of the evicted messages, one clipped line per message, those that say something new
 * first and the user's before replies. Its range is what it holds: the previous summary's
 * `fromSeq` only when some of that summary is kept.
 */
import type { Message, Summary } from '../model';
import type { Tokenizer } from '../ports/tokenizer';
import { speakerText } from '../text/inline-text';
import type { Chars, Tokens } from '../units';

/** Longest line one message contributes. */
export const EXTRACT_LINE_CHARS: Chars = 160;

/**
 * The least share of `maxTokens` the digest of newly evicted messages may take from the previous
 * summary: enough for two or three lines at the smallest summary bound (96 tokens), while two
 * thirds still carry the earlier facts forward.
 */
export const DIGEST_SHARE = 1 / 3;

export interface ExtractiveInput {
  /** The summary this one replaces (its text and the range it covered). */
  previous?: Pick<Summary, 'text' | 'fromSeq' | 'toSeq'>;
  /** The evicted messages, oldest first. */
  messages: readonly Message[];
  tokenizer: Tokenizer;
  maxTokens: Tokens;
}

/** The summary's text and the range of messages it stands for. */
export interface ExtractiveSummary {
  text: string;
  /** The previous summary's `fromSeq` when any of it is kept, else the first evicted message's. */
  fromSeq: number;
  /** The last evicted message's seq. */
  toSeq: number;
}

function firstSentences(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= EXTRACT_LINE_CHARS) return flat;
  const cut = flat.slice(0, EXTRACT_LINE_CHARS);
  const end = Math.max(
    cut.lastIndexOf('. '),
    cut.lastIndexOf('。'),
    cut.lastIndexOf('? '),
    cut.lastIndexOf('! '),
  );
  return end > EXTRACT_LINE_CHARS / 2 ? cut.slice(0, end + 1) : `${cut.slice(0, -1)}…`;
}

function lineOf(message: Message): string | null {
  if (message.role === 'user') {
    return `${message.author === undefined ? 'User' : speakerText(message.author)}: ${firstSentences(message.text)}`;
  }
  if (message.role === 'assistant' && message.toolCall?.name === 'send_message' && message.text) {
    return `${message.author === undefined ? 'Assistant' : speakerText(message.author)}: ${firstSentences(message.text)}`;
  }
  if (message.role === 'tool' && message.toolCall?.name === 'archival_memory_insert') {
    return `(saved to archival: ${firstSentences(String(message.toolCall.arguments.content ?? ''))})`;
  }
  return null;
}

/**
 * Words of a text for novelty: each Han character, every number, and each other run of letters
 * of 3 or more (shorter ones are mostly function words).
 */
function wordsOf(text: string): Set<string> {
  const out = new Set<string>();
  for (const [w] of text.toLowerCase().matchAll(/\p{Script=Han}|[\p{L}\p{N}]+/gu)) {
    if (/\p{Script=Han}|\p{N}/u.test(w) || w.length >= 3) out.add(w);
  }
  return out;
}

/**
 * The previous summary's text as units that can go one at a time, oldest first: its lines, and
 * the sentences of a line that has several (a model's summary is often one paragraph).
 */
function unitsOf(text: string): { text: string; line: number }[] {
  const units: { text: string; line: number }[] = [];
  text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .forEach((line, i) => {
      for (const sentence of line.split(/(?<=[.!?])\s+(?=\S)|(?<=[。！？])/u)) {
        if (sentence.trim() !== '') units.push({ text: sentence.trim(), line: i });
      }
    });
  return units;
}

function joinUnits(units: readonly { text: string; line: number }[]): string {
  const lines: string[] = [];
  let current = -1;
  for (const unit of units) {
    if (unit.line === current) lines[lines.length - 1] += ` ${unit.text}`;
    else lines.push(unit.text);
    current = unit.line;
  }
  return lines.join('\n');
}

interface DigestLine {
  text: string;
  order: number;
  user: boolean;
  cost: Tokens;
  words: Set<string>;
}

/**
 * Picks digest lines within `room` tokens: first lines that add words the summary does not have
 * yet — the user's before replies, the one adding most first — then, while room is left, the
 * rest (newest first); a line with no word, or already in the summary, is left out. Printed in
 * their original order.
 */
function digest(
  messages: readonly Message[],
  carried: string,
  tokenizer: Tokenizer,
  room: Tokens,
): string[] {
  const known = wordsOf(carried);
  const pool: DigestLine[] = [];
  messages.forEach((message, order) => {
    const text = lineOf(message);
    if (!text || carried.includes(text)) return;
    // The speaker's name is not news: only what the line says counts.
    const words = wordsOf(text.slice(text.indexOf(': ') + 2));
    if (words.size === 0) return;
    const cost = tokenizer.count(`${text}\n`);
    pool.push({ text, order, user: message.role === 'user', cost, words });
  });
  const kept: DigestLine[] = [];
  let used = 0;
  for (const minGain of [1, 0]) {
    for (const user of [true, false]) {
      for (;;) {
        let best: { line: DigestLine; gain: number } | null = null;
        for (const line of pool) {
          if (line.user !== user || used + line.cost > room) continue;
          let gain = 0;
          for (const w of line.words) if (!known.has(w)) gain += 1;
          if (
            gain >= minGain &&
            (!best || gain > best.gain || (gain === best.gain && minGain === 0))
          )
            best = { line, gain };
        }
        if (!best) break;
        kept.push(best.line);
        used += best.line.cost;
        pool.splice(pool.indexOf(best.line), 1);
        for (const w of best.line.words) known.add(w);
      }
    }
  }
  return kept.sort((a, b) => a.order - b.order).map((line) => line.text);
}

export function extractiveSummary(input: ExtractiveInput): ExtractiveSummary {
  const { tokenizer, maxTokens, previous, messages } = input;
  const firstSeq = messages[0]?.seq ?? previous?.fromSeq ?? 0;
  const toSeq = messages[messages.length - 1]?.seq ?? previous?.toSeq ?? 0;
  const cost = (units: readonly { text: string; line: number }[]) =>
    units.length === 0 ? 0 : tokenizer.count(`${joinUnits(units)}\n`);

  // The digest may take what the previous summary leaves, and at least its share of the bound.
  let units = unitsOf(previous?.text ?? '');
  const costs = messages.flatMap((m) => {
    const line = lineOf(m);
    return line ? [tokenizer.count(`${line}\n`)] : [];
  });
  const wanted = costs.reduce((a, b) => a + b, 0);
  // At least one line must fit, or a summary that fills the bound would never take a new fact.
  const floor = Math.max(Math.ceil(maxTokens * DIGEST_SHARE), Math.min(...costs, maxTokens));
  const keepFor = Math.max(0, maxTokens - Math.min(wanted, floor));
  // Last resort: the oldest sentences of the previous summary go first.
  while (units.length > 0 && cost(units) > keepFor) units = units.slice(1);
  const carried = joinUnits(units);

  const lines = digest(
    messages,
    carried,
    tokenizer,
    maxTokens - (carried === '' ? 0 : tokenizer.count(`${carried}\n`)),
  );
  let text = [carried, ...lines].filter((part) => part !== '').join('\n');
  // Joined text may count a token more than its parts did; trim the oldest carried sentence.
  while (tokenizer.count(text) > maxTokens && units.length > 0) {
    units = units.slice(1);
    text = [joinUnits(units), ...lines].filter((part) => part !== '').join('\n');
  }
  return {
    text,
    fromSeq: units.length > 0 && previous ? previous.fromSeq : firstSeq,
    toSeq,
  };
}
