import type { Chars } from '../units';
import type { DocumentId, Passage, PassageId } from '../model';

/**
 * One cited document passage, with what the UI needs to open the document there and
 * highlight `[start, end)` of its text.
 */
export interface Citation {
  /** 1-based, in order of first appearance in the reply: the label the UI shows. */
  number: number;
  passageId: PassageId;
  documentId: DocumentId;
  page?: number;
  start: Chars;
  end: Chars;
  heading?: string;
}

/** A reply split into plain text and citation markers, in reply order. */
export type CitedSegment =
  { type: 'text'; text: string } | { type: 'citation'; citation: Citation };

/** A reply with its citation markers resolved, ready to render. */
export interface CitedReply {
  segments: CitedSegment[];
  /** Distinct citations, by `number`. */
  citations: Citation[];
  /** The reply with each known marker as `[n]` and unknown markers removed. */
  text: string;
}

/**
 * A citation marker as the agent writes it (spec D20): `[^ID]` right after the claim, ID being
 * the passage id shown in the search result. Tolerated, because small models drift: several ids
 * in one bracket (`[^a, ^b]`, `[^a, b]`, `[^a; b]`) and spaces inside the brackets.
 */
const MARKER = /[ \t]*\[\^\s*([\w.:-]+(?:\s*[,;]\s*\^?\s*[\w.:-]+)*)\s*\]/g;

/**
 * The system-prompt sentence that teaches the agent the marker (spec D20), with one good and one
 * bad example. It lives beside the parser so the two never disagree.
 */
export const CITATION_INSTRUCTION =
  'When your reply uses a passage from archival_memory_search, cite it by writing its id as ' +
  '[^ID] right after the sentence, e.g. "The lamp is lit at dusk [^psg_12]." ' +
  'Never invent ids or write "[source]"; cite only ids you were shown.';

/** The marker for a passage, as prompts show it to the agent (`[^psg_12]`). */
export function citationMarker(passageId: PassageId): string {
  return `[^${passageId}]`;
}

/** The distinct passage ids a reply cites, in order: what to fetch before {@link linkCitations}. */
export function citedPassageIds(reply: string): PassageId[] {
  const seen = new Set<PassageId>();
  for (const m of reply.matchAll(MARKER)) for (const id of idsOf(m[1] ?? '')) seen.add(id);
  return [...seen];
}

/**
 * Resolves the citation markers of a reply against the passages the caller fetched (usually
 * `store.getPassages(citedPassageIds(reply))`). A marker whose id is unknown, or names a passage
 * that is not from a document, is dropped from the text (with the space before it) and never
 * becomes a link; a repeated passage keeps its first number.
 */
export function linkCitations(reply: string, passages: readonly Passage[]): CitedReply {
  const byId = new Map(passages.map((p) => [p.id, p]));
  const numbered = new Map<PassageId, Citation>();
  const segments: CitedSegment[] = [];
  const parts: string[] = [];
  const pushText = (text: string): void => {
    if (text === '') return;
    const last = segments[segments.length - 1];
    if (last?.type === 'text') last.text += text;
    else segments.push({ type: 'text', text });
    parts.push(text);
  };
  let from = 0;
  for (const m of reply.matchAll(MARKER)) {
    const at = m.index;
    const resolved = idsOf(m[1] ?? '').flatMap((id) => {
      const citation = numbered.get(id) ?? citationOf(byId.get(id), numbered.size + 1);
      if (citation !== null) numbered.set(id, citation);
      return citation === null ? [] : [citation];
    });
    pushText(reply.slice(from, at));
    from = at + m[0].length;
    if (resolved.length === 0) continue;
    // Keep the spacing the agent wrote before a marker that survives.
    pushText(/^[ \t]+/.exec(m[0])?.[0] ?? '');
    for (const citation of resolved) {
      segments.push({ type: 'citation', citation });
      parts.push(`[${citation.number}]`);
    }
  }
  pushText(reply.slice(from));
  return { segments, citations: [...numbered.values()], text: parts.join('') };
}

function idsOf(group: string): PassageId[] {
  return group
    .split(/[,;]/)
    .map((s) => s.replace(/^\s*\^?\s*/, '').trim())
    .filter((s) => s !== '');
}

function citationOf(passage: Passage | undefined, number: number): Citation | null {
  if (passage === undefined || passage.source.type !== 'document') return null;
  const { documentId, page, start, end, heading } = passage.source;
  const citation: Citation = { number, passageId: passage.id, documentId, start, end };
  if (page !== undefined) citation.page = page;
  if (heading !== undefined) citation.heading = heading;
  return citation;
}
