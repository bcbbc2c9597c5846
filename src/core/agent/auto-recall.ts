/**
 * Automatic recall (A11, A12): before a turn, a hybrid search over recall and archival with
 * the trigger text, widened by a lexical search with the words its best hits share (A28, ADR
 * 0215), leaving out what the prompt already holds, lines with no content of their own and
 * repeats (A19, A20, ADR 0094).
 * The hits become rendered memory lines; the strategy fits them into `recallBudget`. This is
 * what makes memory work when a small model never calls a search tool.
 */
import type { ContextMemory } from '../context/strategy';
import type { Agent, DocumentId, Message } from '../model';
import type { MemorySearch, SearchHit, SearchQuery } from '../ports/memory-search';
import { RRF_K } from '../search/fuse-ranks';
import {
  passageSourceLabel,
  renderArchivalMemory,
  renderRecallMemory,
} from '../prompts/render-context';
import type { Chars } from '../units';
import { feedbackTerms } from './recall-feedback';
import { createRecallFilter, isLowContent, queryCoverage, trimToQuery } from './recall-lines';

/** Hits fetched per turn; more than fit, so the budget (not the page) decides. */
export const RECALL_CANDIDATES = 100;
/** Longest memory line. */
export const RECALL_LINE_CHARS: Chars = 600;
/**
 * Weight of the feedback query's list (A28, ADR 0215): the trigger and the words its best hits
 * share. Below the trigger's own search, so it adds turns rather than reorders the best ones.
 */
export const RECALL_FEEDBACK_WEIGHT = 0.6;
/**
 * How much each query term a memory holds (in its text or its speaker's name) lifts it: its
 * fused reciprocal-rank score is multiplied by 1 + weight × terms covered (A19, ADR 0094).
 */
export const RECALL_COVERAGE_WEIGHT = 0.15;

/**
 * How much a memory written by the one participant the trigger names moves up: its score is
 * multiplied by 1 + this weight (A21, ADR 0095). "What did Melanie paint?" is most often
 * answered by something Melanie said.
 */
export const RECALL_AUTHOR_WEIGHT = 0.6;

/**
 * How many of the trigger's own best hits lead the candidates whatever the lifts say (A26, ADR
 * 0181). Reciprocal-rank scores are nearly flat (1/61 at rank 1, 1/91 at rank 30), so the A19 and
 * A21 lifts move a line up to ~40 places and can bury the search's best hits below what a small
 * recall budget holds.
 */
export const RECALL_LEAD_HITS = 5;

/**
 * The authors (lower-cased) of `messages` that `query` names as a whole word — none when it
 * names every author or no one, since naming everyone singles nobody out (A21).
 */
export function namedAuthors(
  query: string,
  messages: readonly (Message | undefined)[],
): ReadonlySet<string> {
  const authors = new Set<string>();
  for (const m of messages) if (m?.author) authors.add(m.author.toLowerCase());
  const words = new Set(query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  const named = new Set([...authors].filter((a) => words.has(a)));
  return named.size === authors.size ? new Set() : named;
}

export interface AutoRecallInput {
  agent: Agent;
  search: MemorySearch;
  /** The trigger's text (user message or event). */
  query: string;
  /** The in-context queue (its ids are excluded; its latest reply joins the query). */
  queue: readonly Message[];
  /** A document's title, for the source of its passages (`document "report.pdf", passage 3`). */
  documentTitle?: (documentId: DocumentId) => Promise<string | undefined>;
  /** Core memory's block values: a text already there is not paged in again (A20). */
  coreMemory?: readonly string[];
  /**
   * Where a recalled message was said (`in "Trip planning"`), when the agent has several
   * conversations; absent, the line names none (A23).
   */
  conversationOf?: (message: Message) => string;
}

/**
 * Reciprocal-rank fusion of weighted hit lists: the trigger's own (weight 1) and the feedback
 * query's ({@link RECALL_FEEDBACK_WEIGHT}).
 */
function fuseHits(lists: readonly { hits: readonly SearchHit[]; weight: number }[]): SearchHit[] {
  const score = new Map<string, number>();
  const hitOf = new Map<string, SearchHit>();
  for (const { hits, weight } of lists)
    hits.forEach((hit, i) => {
      score.set(hit.id, (score.get(hit.id) ?? 0) + weight / (RRF_K + i + 1));
      if (!hitOf.has(hit.id)) hitOf.set(hit.id, hit);
    });
  return [...hitOf.values()].sort((a, b) => (score.get(b.id) ?? 0) - (score.get(a.id) ?? 0));
}

/** The turn's recall candidates, best first (empty when `agent.autoRecall` is off). */
export async function autoRecall(input: AutoRecallInput): Promise<ContextMemory[]> {
  // A greeting or a thanks asks for nothing: nothing is recalled for it (A27).
  if (!input.agent.autoRecall || isLowContent(input.query)) return [];
  const ask = (text: string): SearchQuery => ({
    agentId: input.agent.id,
    text,
    kinds: ['message', 'passage'],
    mode: 'hybrid',
    page: 1,
    pageSize: RECALL_CANDIDATES,
    exclude: input.queue.map((m) => m.id),
  });
  // The trigger alone: the last reply is in the prompt already, and searching with it too made
  // recall worse on conversations nobody tuned on (ADR 0215, which retires ADR 0093's query).
  const search = input.search;
  const own = await search.search(ask(input.query));
  // Words the best hits share widen a lexical query (A28): lexical only, so it costs no embedding.
  const widen = feedbackTerms(
    input.query,
    own.hits.map((h) => ({ text: h.message?.text ?? h.text, author: h.message?.author })),
  );
  const feedback =
    widen.length === 0
      ? null
      : await search.search({ ...ask(`${input.query} ${widen.join(' ')}`), mode: 'lexical' });
  const lists = [
    { hits: own.hits, weight: 1 },
    ...(feedback ? [{ hits: feedback.hits, weight: RECALL_FEEDBACK_WEIGHT }] : []),
  ];
  const fused = lists.length === 1 ? own.hits : fuseHits(lists).slice(0, RECALL_CANDIDATES);
  // A memory that holds more of what was asked moves up a little (ADR 0094).
  const askedAbout = namedAuthors(input.query, [...input.queue, ...fused.map((h) => h.message)]);
  const covers = queryCoverage(input.query);
  const lift = new Map(
    fused.map((h, i) => [
      h.id,
      ((1 + RECALL_COVERAGE_WEIGHT * covers(h.text, h.message?.author)) *
        (askedAbout.has(h.message?.author?.toLowerCase() ?? '') ? 1 + RECALL_AUTHOR_WEIGHT : 1)) /
        (RRF_K + i + 1),
    ]),
  );
  const lifted = [...fused].sort((a, b) => (lift.get(b.id) ?? 0) - (lift.get(a.id) ?? 0));
  // The trigger's own best hits come first, in lifted order, then the rest (A26).
  const lead = new Set(own.hits.slice(0, RECALL_LEAD_HITS).map((h) => h.id));
  const hits = [...lifted.filter((h) => lead.has(h.id)), ...lifted.filter((h) => !lead.has(h.id))];
  const memories: ContextMemory[] = [];
  const filter = createRecallFilter(input.queue, input.coreMemory ?? []);
  for (const hit of hits) {
    if (hit.kind === 'message') {
      const message = hit.message;
      // Tool output and alerts are the loop's own chatter, not memories.
      if (
        !message ||
        (message.role !== 'user' && message.role !== 'assistant') ||
        message.text === '' ||
        !filter.admit(message.text)
      )
        continue;
      memories.push({
        id: hit.id,
        text: renderRecallMemory(
          { ...message, text: trimToQuery(message.text, input.query, RECALL_LINE_CHARS) },
          input.conversationOf?.(message),
        ),
        tokens: 0,
        origin: 'recall',
        score: hit.score,
      });
    } else {
      if (!filter.admit(hit.text)) continue;
      const source = hit.passage?.source;
      const title =
        source?.type === 'document' ? await input.documentTitle?.(source.documentId) : undefined;
      memories.push({
        id: hit.id,
        text: renderArchivalMemory(
          hit.id,
          trimToQuery(hit.text, input.query, RECALL_LINE_CHARS),
          passageSourceLabel(hit.passage, title),
        ),
        tokens: 0,
        origin: 'archival',
        score: hit.score,
        ...(source?.type === 'document'
          ? {
              untrusted: {
                passageId: hit.id,
                documentId: source.documentId,
                title: title ?? 'a document',
                chunk: source.chunk,
              },
            }
          : {}),
      });
    }
  }
  return memories;
}
