import { MONTH_NAMES as MONTHS } from '../text/month-names';

/**
 * What a recall query asks beyond its words (ADR 0071): which known speakers it names, and
 * whether it asks *when* something happened. Memory search uses both to re-rank lexical hits:
 * a turn by a named speaker, and for a "when" question a turn that mentions a time ("yesterday",
 * "last week", a month, a year), gets a boost. Pure and language-light: names are matched as
 * whole words, case-insensitively; the time words are English (Chinese dates are matched by the
 * Han bigrams of the lexical index already).
 */

const WORD = /[\p{L}\p{N}]+/gu;
const WHEN =
  /^\s*(when\b|what (date|day|time|year|month)\b|how long ago\b)|什么时候|哪天|几号|何时/iu;
const TIME_WORDS =
  /\b(yesterday|today|tonight|tomorrow|ago|recently|earlier|(last|next|this) (week|weekend|month|year|night|summer|winter|spring|fall|morning|evening)|(19|20)\d\d|january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b|昨天|今天|明天|上周|下周|上个月|下个月|去年|明年|[一二三四五六七八九十\d]+月/iu;

export interface QueryAnalysis {
  /** Lower-cased speaker names the query mentions (empty when it names all of them or none). */
  speakers: ReadonlySet<string>;
  /** Whether the query asks for a time. */
  asksWhen: boolean;
  /** Calendar months the query names (`in June`, `May 2023`; 0-based month, UTC), if any. */
  months?: readonly { month: number; year?: number }[];
}

const MONTH_NAME = new RegExp(
  `\\b(${MONTHS.join('|')})\\b(?:[^\\p{L}\\d]*(?:\\d{1,2}(?:st|nd|rd|th)?)?[^\\p{L}\\d]*((?:19|20)\\d\\d))?`,
  'giu',
);

/**
 * Months named in a query, with the year when one follows. "may" is taken as a month only when
 * capitalised or followed by a year, so "may I ask" is not May.
 */
function monthsOf(text: string): { month: number; year?: number }[] {
  const out: { month: number; year?: number }[] = [];
  for (const m of text.matchAll(MONTH_NAME)) {
    const name = m[1]!;
    if (name.toLowerCase() === 'may' && name !== 'May' && m[2] === undefined) continue;
    out.push({ month: MONTHS.indexOf(name.toLowerCase()), year: m[2] ? Number(m[2]) : undefined });
  }
  return out;
}

/** Analyses `text` against the speakers known to the index (lower-cased). */
export function analyzeQuery(text: string, knownSpeakers: ReadonlySet<string>): QueryAnalysis {
  const named = new Set<string>();
  for (const [word] of text.toLowerCase().matchAll(WORD)) {
    if (knownSpeakers.has(word)) named.add(word);
  }
  // Naming everyone singles nobody out.
  const speakers = named.size === knownSpeakers.size ? new Set<string>() : named;
  return { speakers, asksWhen: WHEN.test(text), months: monthsOf(text) };
}

/** Whether a memory's text mentions a time, for "when" questions. */
export function mentionsTime(text: string): boolean {
  return TIME_WORDS.test(text);
}
