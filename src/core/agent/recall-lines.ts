/**
 * Which recalled texts are worth a line in the prompt (A19, A20): never a line with no content
 * of its own ("OK", "Got it, I have saved that."), never the same text twice, never a text the
 * prompt already holds (a queued message, core memory). Texts are compared by their search terms
 * (lowercased, stop words out, plurals folded), so punctuation, case and spacing do not make a
 * duplicate look new.
 */
import type { Message } from '../model';
import { STOP_WORDS, tokenize } from '../search/tokenize';

/**
 * Words that acknowledge, greet or react without saying anything of their own — generic chat
 * English, never taken from a data set. A line made only of these and stop words is low-content.
 */
const ACKNOWLEDGEMENT_WORDS = new Set(
  tokenize(
    'ok okay k yes yeah yep yup no nope sure thanks thank thx ty got it saved noted done ' +
      'great good cool nice wow awesome amazing perfect fine alright right hi hello hey bye ' +
      'goodbye lol haha hah oh ah hmm um uh glad hear sounds sound exactly indeed true totally ' +
      'definitely absolutely agreed agree welcome pleasure np sorry that thats',
  ),
);

/** The terms of `text` that say something (stop words and acknowledgements out). */
export function contentTerms(text: string): string[] {
  return tokenize(text.replace(/’/g, "'")).filter(
    (t) => !STOP_WORDS.has(t) && !ACKNOWLEDGEMENT_WORDS.has(t),
  );
}

/** A line with no content of its own: only acknowledgements, greetings and function words (A19). */
export function isLowContent(text: string): boolean {
  return contentTerms(text).length === 0;
}

/** The key two texts share when a reader would call them the same (A20). */
export function sameTextKey(text: string): string {
  return tokenize(text).join(' ');
}

/**
 * Keys of texts seen lately: the queue's messages are keyed again on every turn, and a memory
 * recalled once is often recalled again (ADR 0096). Bounded; emptied when full.
 */
const KEY_MEMO = new Map<string, { key: string; lowContent: boolean }>();
const KEY_MEMO_SIZE = 2048;
/** Longer texts are keyed each time (a memo of long texts would hold on to a lot of memory). */
const KEY_MEMO_CHARS = 2000;

/** `sameTextKey` and `isLowContent` of `text` from one tokenization (both when no ’ is in it). */
function keyOf(text: string): { key: string; lowContent: boolean } {
  const known = KEY_MEMO.get(text);
  if (known) return known;
  const terms = tokenize(text);
  const lowContent = text.includes('’')
    ? isLowContent(text)
    : !terms.some((t) => !STOP_WORDS.has(t) && !ACKNOWLEDGEMENT_WORDS.has(t));
  const entry = { key: terms.join(' '), lowContent };
  if (text.length > KEY_MEMO_CHARS) return entry;
  if (KEY_MEMO.size >= KEY_MEMO_SIZE) KEY_MEMO.clear();
  KEY_MEMO.set(text, entry);
  return entry;
}

/**
 * Remembers what the prompt already holds — the queued messages' visible text and core memory —
 * and every line taken so far; `admit` says whether a new text adds anything.
 */
export function createRecallFilter(queue: readonly Message[], coreMemory: readonly string[]) {
  const seen = new Set<string>();
  for (const m of queue) {
    if (m.role === 'user' || m.toolCall?.name === 'send_message') seen.add(keyOf(m.text).key);
  }
  const core = coreMemory.map((v) => ` ${sameTextKey(v)} `);
  return {
    admit(text: string): boolean {
      const { key, lowContent } = keyOf(text);
      if (lowContent) return false;
      if (seen.has(key)) return false;
      if (core.some((c) => c.includes(` ${key} `))) return false;
      seen.add(key);
      return true;
    },
  };
}

/**
 * A long text cut to the sentences that share the most terms with the query, in their own
 * order, within `chars` (A19): a reader sees why it was recalled, and more memories fit. A text
 * within `chars` stays whole; with no sentence matching, its start is kept.
 */
export function trimToQuery(text: string, query: string, chars: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= chars) return flat;
  const wanted = new Set(contentTerms(query));
  const sentences = flat.split(/(?<=[.!?…])\s+/);
  const scored = sentences.map((s, i) => ({
    i,
    s,
    score: new Set(contentTerms(s).filter((t) => wanted.has(t))).size,
  }));
  const keep = new Set<number>();
  let used = 0;
  for (const c of [...scored].sort((a, b) => b.score - a.score || a.i - b.i)) {
    if (c.score === 0) break;
    const cost = c.s.length + (keep.size > 0 ? 3 : 0);
    if (used + cost > chars) continue;
    keep.add(c.i);
    used += cost;
  }
  if (keep.size === 0) return `${flat.slice(0, chars - 1)}…`;
  const parts: string[] = [];
  let last = -1;
  for (const c of scored) {
    if (!keep.has(c.i)) continue;
    parts.push(c.i === last + 1 ? c.s : `… ${c.s}`);
    last = c.i;
  }
  return `${parts.join(' ')}${last < sentences.length - 1 ? ' …' : ''}`;
}

/**
 * How many of the query's distinct content terms a memory holds (its text and who said it): a
 * line that answers more of what was asked leads (A19).
 */
export function queryCoverage(query: string): (text: string, author?: string) => number {
  const wanted = new Set(contentTerms(query));
  return (text, author) => {
    const have = new Set(contentTerms(`${author ?? ''} ${text}`));
    let n = 0;
    for (const t of wanted) if (have.has(t)) n += 1;
    return n;
  };
}
