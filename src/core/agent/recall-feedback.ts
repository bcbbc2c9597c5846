/**
 * Pseudo-relevance feedback for automatic recall (A28, ADR 0215). The trigger's best hits often
 * share words the trigger does not hold — "When did Melanie go camping?" finds turns about the
 * campfire, the kids and the tent, and the turn that answers ("We explored nature, roasted
 * marshmallows…") shares those words rather than "camping". A second, lexical query made of the
 * trigger and the words at least two of its best hits share widens recall to such turns. It is
 * general retrieval practice (relevance feedback), read from the conversation itself, with no
 * word list of its own.
 */
import { contentTerms } from './recall-lines';

/** How many of the trigger's best hits give feedback. */
export const RECALL_FEEDBACK_HITS = 5;
/** Most words the feedback query adds. */
export const RECALL_FEEDBACK_TERMS = 5;
/** A word must be in at least this many of the feedback hits: one hit's word is its own topic. */
export const RECALL_FEEDBACK_SHARED = 2;

/** A hit that gives feedback: its text, and who wrote it (a name is not a topic). */
export interface FeedbackHit {
  text: string;
  author?: string;
}

/**
 * The words (search terms) that at least {@link RECALL_FEEDBACK_SHARED} of `hits` hold and
 * `query` does not, most shared first (ties: first seen first), at most
 * {@link RECALL_FEEDBACK_TERMS}. Acknowledgements, stop words, numbers and the authors' names
 * never count. Empty when the hits share nothing new.
 */
export function feedbackTerms(query: string, hits: readonly FeedbackHit[]): string[] {
  const asked = new Set(contentTerms(query));
  // A chat has few authors: each distinct name is tokenized once, not once per hit.
  const names = new Set<string>();
  for (const author of new Set(hits.map((h) => h.author ?? '')))
    for (const t of contentTerms(author)) names.add(t);
  const shared = new Map<string, number>();
  for (const hit of hits.slice(0, RECALL_FEEDBACK_HITS)) {
    for (const term of new Set(contentTerms(hit.text))) {
      if (asked.has(term) || names.has(term) || /^\d+$/.test(term)) continue;
      shared.set(term, (shared.get(term) ?? 0) + 1);
    }
  }
  return [...shared]
    .filter(([, n]) => n >= RECALL_FEEDBACK_SHARED)
    .sort((a, b) => b[1] - a[1])
    .slice(0, RECALL_FEEDBACK_TERMS)
    .map(([term]) => term);
}
