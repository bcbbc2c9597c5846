/**
 * Automatic recall (A11, A12): before a turn, a hybrid search over recall and archival with
 * the trigger text, and one with the trigger plus a little recent context, fused with the
 * trigger's own ranking first (ADR 0093), leaving out what the prompt already holds, lines with
 * no content of their own and repeats (A19, A20, ADR 0094).
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
import { createRecallFilter, isLowContent, queryCoverage, trimToQuery } from './recall-lines';

/** Hits fetched per turn; more than fit, so the budget (not the page) decides. */
export const RECALL_CANDIDATES = 100;
/** Longest memory line. */
export const RECALL_LINE_CHARS: Chars = 600;
/** Recent context added to the query. */
export const RECALL_CONTEXT_CHARS: Chars = 200;
/**
 * Weight of the search with the recent context beside the trigger's own search (weight 1) in
 * their reciprocal-rank fusion: the context helps a reply such as "Yes, last Sunday!" but must
 * not bury what a self-contained question asks for (ADR 0093).
 */
export const RECALL_CONTEXT_WEIGHT = 0.5;
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

function clip(text: string, chars: Chars): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= chars ? flat : `${flat.slice(0, chars - 1)}…`;
}

/** The query: the trigger, then the latest assistant reply in the queue (A11). */
export function recallQuery(query: string, queue: readonly Message[]): string {
  const reply = [...queue]
    .reverse()
    .find((m) => m.role === 'assistant' && m.toolCall?.name === 'send_message');
  return reply ? `${query}\n${clip(reply.text, RECALL_CONTEXT_CHARS)}` : query;
}

/** Reciprocal-rank fusion of the trigger's hits (weight 1) and the hits with context. */
function fuseHits(own: readonly SearchHit[], context: readonly SearchHit[]): SearchHit[] {
  const score = new Map<string, number>();
  const hitOf = new Map<string, SearchHit>();
  const add = (list: readonly SearchHit[], weight: number) =>
    list.forEach((hit, i) => {
      score.set(hit.id, (score.get(hit.id) ?? 0) + weight / (RRF_K + i + 1));
      if (!hitOf.has(hit.id)) hitOf.set(hit.id, hit);
    });
  add(own, 1);
  add(context, RECALL_CONTEXT_WEIGHT);
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
  const withContext = recallQuery(input.query, input.queue);
  const queries =
    withContext === input.query ? [ask(input.query)] : [ask(input.query), ask(withContext)];
  // One vector pass for both queries where the search offers it (C23, ADR 0168); otherwise both
  // at once, so in the app one query's embedding and scan overlap the other's lexical work.
  const search = input.search;
  const [own, context = null] =
    queries.length > 1 && search.searchMany
      ? await search.searchMany(queries)
      : await Promise.all(queries.map((q) => search.search(q)));
  if (!own) return [];
  const fused =
    context === null ? own.hits : fuseHits(own.hits, context.hits).slice(0, RECALL_CANDIDATES);
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
