import type { LexicalHit } from '../ports/lexical-index';
import type { QueryAnalysis } from './query-analysis';

/** What the re-ranking knows about one indexed memory. */
export interface RerankMeta {
  /** Lower-cased speaker of a message. */
  speaker?: string;
  /** Whether its text mentions a time. */
  timeRef?: boolean;
  /** The turn this one replies to and the reply to it (neighbours from the other side). */
  prev?: string;
  next?: string;
  /** When it was written (epoch ms). */
  at?: number;
}

export interface RerankOptions {
  /** Multiplier for a turn by a speaker the query names. */
  speakerBoost: number;
  /** Multiplier for a turn that mentions a time, when the query asks "when". */
  timeBoost: number;
  /** Share of a hit's score its neighbouring turns receive (conversational context). */
  neighbourShare: number;
  /** Multiplier for a turn written in a calendar month the query names (ADR 0075). */
  monthBoost?: number;
}

/** Defaults tuned on LoCoMo-style conversations (ADR 0071; general rules, not per-dataset). */
export const DEFAULT_RERANK: RerankOptions = {
  speakerBoost: 1.5,
  timeBoost: 1.5,
  neighbourShare: 0.4,
  monthBoost: 1.5,
};

/**
 * Re-ranks BM25 hits for conversational recall: boosts turns by a speaker the query names,
 * for "when" questions turns that mention a time, and turns written in a month the query names; then gives each hit's neighbouring turns that
 * also matched a share of its score, because an answer often sits in the reply to the turn that
 * matched (or the question before it). Only matching turns are ever returned, so totals and
 * filters keep their meaning. Returns hits best first; ties keep BM25 order.
 */
export function rerankLexical(
  hits: readonly LexicalHit[],
  analysis: QueryAnalysis,
  metaOf: (id: string) => RerankMeta | undefined,
  options: RerankOptions = DEFAULT_RERANK,
): LexicalHit[] {
  const scores = new Map<string, { hit: LexicalHit; score: number; order: number }>();
  const add = (hit: LexicalHit, score: number) => {
    const entry = scores.get(hit.id);
    if (entry) entry.score += score;
    else scores.set(hit.id, { hit, score, order: scores.size });
  };
  const matched = new Set(hits.map((h) => h.id));
  for (const hit of hits) {
    const meta = metaOf(hit.id);
    let score = hit.score;
    if (meta?.speaker !== undefined && analysis.speakers.has(meta.speaker))
      score *= options.speakerBoost;
    if (analysis.asksWhen && meta?.timeRef) score *= options.timeBoost;
    if (meta?.at !== undefined && inMonths(meta.at, analysis.months))
      score *= options.monthBoost ?? 1;
    add(hit, score);
    if (options.neighbourShare <= 0 || hit.kind !== 'message') continue;
    for (const id of [meta?.prev, meta?.next]) {
      if (id !== undefined && matched.has(id))
        add({ id, kind: 'message', score: 0 }, options.neighbourShare * score);
    }
  }
  return [...scores.values()]
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map(({ hit, score }) => ({ ...hit, score }));
}

/** Whether `at` falls in one of the named months (UTC; any year unless one is named). */
function inMonths(at: number, months: QueryAnalysis['months']): boolean {
  if (!months || months.length === 0) return false;
  const date = new Date(at);
  const month = date.getUTCMonth();
  const year = date.getUTCFullYear();
  return months.some((m) => m.month === month && (m.year === undefined || m.year === year));
}
