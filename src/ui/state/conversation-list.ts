/**
 * The conversation list's rules, without state (U187–U189): most recent first, search by title,
 * the title a rename may set, and the title a new chat takes from its first message.
 */
import type { Conversation } from '../../core/model';

/** The title a conversation starts with, until the user names it or its first message does. */
export const NEW_CHAT_TITLE = 'New chat';
/** The longest title a conversation may have (it must fit on one row of the list). */
export const MAX_TITLE_LENGTH = 80;
/** How much of the first message a new chat's title takes. */
const AUTO_TITLE_LENGTH = 48;

/** Most recently updated first; ties by newest creation, then id, so the order never flickers. */
export function sortConversations(list: readonly Conversation[]): Conversation[] {
  return [...list].sort(
    (a, b) => b.updatedAt - a.updatedAt || b.createdAt - a.createdAt || a.id.localeCompare(b.id),
  );
}

/** Case- and accent-insensitive form used to match titles. */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase();
}

/**
 * The conversations whose title contains every word of `query` (any order, any case, accents
 * ignored), most recent first. An empty query keeps them all.
 */
export function filterByTitle(list: readonly Conversation[], query: string): Conversation[] {
  const words = fold(query).split(/\s+/).filter(Boolean);
  const sorted = sortConversations(list);
  if (words.length === 0) return sorted;
  return sorted.filter((c) => {
    const title = fold(c.title);
    return words.every((w) => title.includes(w));
  });
}

export type TitleCheck = { ok: true; title: string } | { ok: false; error: string };

/** What a rename may set: trimmed, spaces collapsed, not empty and at most {@link MAX_TITLE_LENGTH}. */
export function checkTitle(input: string): TitleCheck {
  const title = input.replace(/\s+/g, ' ').trim();
  if (title === '') return { ok: false, error: 'A conversation needs a title.' };
  const length = [...title].length;
  if (length > MAX_TITLE_LENGTH)
    return {
      ok: false,
      error: `The title has ${length} characters; at most ${MAX_TITLE_LENGTH} fit.`,
    };
  return { ok: true, title };
}

/** A greeting or thanks at the start of a message: it names nothing. */
const GREETING =
  /^((hi|hello|hey|hiya)( there)?|good (morning|afternoon|evening)|thanks|thank you|ok|okay)\b[\s,!.]*/i;
/** A polite opening before the request itself. */
const FILLER =
  /^(please|can you|could you|would you|will you|help me|i want you to|i'd like you to|i would like you to)\b[\s,]*/i;
/** Longer than this, a message is named after its first clause. */
const CLAUSE_FROM = 32;
/** Words a period follows without ending anything ("Dr. Lee", "e.g. tea"), lower case. */
const ABBREVIATIONS = new Set(
  'dr mr mrs ms mx prof st sr jr mt vs etc eg ie e.g i.e no approx dept fig ca cf'.split(' '),
);

/**
 * The text before the first punctuation that ends a clause — a comma, semicolon, colon, "!" or
 * "?", or a period that is not an abbreviation's or an initial's ("Dr.", "J.") — followed by a
 * space or the end; null when there is none.
 */
function firstClause(text: string): string | null {
  for (const match of text.matchAll(/[,;:.!?](?=\s|$)/gu)) {
    const before = text.slice(0, match.index);
    if (match[0] === '.') {
      const word = (/(\S+)$/u.exec(before)?.[1] ?? '').toLowerCase();
      if (ABBREVIATIONS.has(word) || /^\p{L}$/u.test(word)) continue;
    }
    return before.length > 0 ? before : null;
  }
  return null;
}

/**
 * A new chat's title from the words of a message (U294): its first line, spaces collapsed,
 * without a greeting or polite opening ("Hi! Could you…"), its first clause when the line is long
 * and that clause has three words or more, capitalised, and cut at a word before
 * {@link AUTO_TITLE_LENGTH} characters with "…". Null when nothing is left (a bare "Hello!"): the
 * next message names the chat instead.
 */
export function titleFromMessage(text: string): string | null {
  const line = (text.split('\n').find((l) => l.trim() !== '') ?? '').replace(/\s+/g, ' ').trim();
  let rest = line;
  for (let opening = GREETING.exec(rest) ?? FILLER.exec(rest); opening?.[0];) {
    rest = rest.slice(opening[0].length);
    opening = GREETING.exec(rest) ?? FILLER.exec(rest);
  }
  rest = rest.trim();
  if (!/[\p{L}\p{N}]/u.test(rest)) return null;
  const clause = firstClause(rest);
  if ([...rest].length > CLAUSE_FROM && clause && clause.split(' ').length >= 3) rest = clause;
  rest = rest.charAt(0).toLocaleUpperCase() + rest.slice(1);
  const chars = [...rest];
  if (chars.length <= AUTO_TITLE_LENGTH) return rest;
  const cut = chars.slice(0, AUTO_TITLE_LENGTH).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > AUTO_TITLE_LENGTH / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
