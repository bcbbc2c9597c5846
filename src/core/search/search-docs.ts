/**
 * Indexing half of memory search: what the index keeps per row ({@link SearchMeta}) and the
 * lexical document of each message and passage. A message is indexed with its author's name
 * and, when it replies to the other side, the turn it answers (ADR 0071, R20); only messages
 * with visible text of an indexed role are indexed (R13, R19).
 */
import type { Message, Passage } from '../model';
import type { LexicalDoc } from '../ports/lexical-index';
import type { VectorKind } from '../ports/vector-index';
import type { EpochMs } from '../units';
import { hasVisibleText } from './has-visible-text';
import type { RerankMeta } from './lexical-rerank';
import { mentionsTime } from './query-analysis';

/** What the index keeps about each row it holds. */
export interface SearchMeta extends Partial<RerankMeta> {
  kind: VectorKind;
  at: EpochMs;
  /** Message role or passage source type. */
  tag: string;
}

/** Builds the lexical documents of one agent's rows, in the order they are written. */
export interface DocBuilder {
  /** Lower-cased author names of indexed messages (the user's display name, the agent's name). */
  readonly speakers: Set<string>;
  /** Whether a message is held by the index: visible text of an indexed role. */
  indexable(m: Message): boolean;
  /** The message's document; records its meta and links it to the turn it answers. */
  messageDoc(m: Message): LexicalDoc;
  passageDoc(p: Passage): LexicalDoc;
  /** Forgets the speakers and the last message (on agent load). */
  reset(): void;
}

/**
 * Most characters of a message's own text the lexical index reads (X180, ADR 0157): a pasted
 * 1 MB message is found by its first 20,000 characters, the part the chat shows (X172), and
 * indexing it costs a bounded slice of a task instead of a second of tokenizing.
 */
export const MAX_INDEXED_CHARS = 20_000;

export function createDocBuilder(
  roles: ReadonlySet<string>,
  meta: Map<string, SearchMeta>,
): DocBuilder {
  const speakers = new Set<string>();
  /** The last message indexed, whose text becomes the next one's context. */
  let lastMessage: { id: string; line: string; who: string } | null = null;
  const authorLine = (m: Message, text: string): string =>
    m.author ? `${m.author}: ${text}` : text;
  return {
    speakers,
    indexable: (m) => roles.has(m.role) && hasVisibleText(m),
    /**
     * Only visible messages are indexed, so the live loop's tool steps between a user message
     * and the reply do not break the link: a reply ("Yes, last Sunday!") is found by the question
     * it answers, and "what did Caroline say" finds Caroline's turns.
     */
    messageDoc(m) {
      const text = m.text.length > MAX_INDEXED_CHARS ? m.text.slice(0, MAX_INDEXED_CHARS) : m.text;
      const line = authorLine(m, text);
      const previous = lastMessage;
      const speaker = m.author?.toLowerCase();
      if (speaker) speakers.add(speaker);
      const who = m.role;
      // Only a reply (the other side speaking) is linked to, and indexed with, the turn it answers.
      const answered = previous && previous.who !== who ? previous : null;
      meta.set(m.id, {
        kind: 'message',
        at: m.at,
        tag: m.role,
        speaker,
        timeRef: mentionsTime(text),
        prev: answered?.id,
      });
      if (answered) {
        const before = meta.get(answered.id);
        if (before) before.next = m.id;
      }
      lastMessage = { id: m.id, line, who };
      const context = answered?.line ?? null;
      return {
        id: m.id,
        kind: 'message',
        text: context ? `${line}\n${context}` : line,
        at: m.at,
        tag: m.role,
      };
    },
    passageDoc: (p) => ({ id: p.id, kind: 'passage', text: p.text, at: p.at, tag: p.source.type }),
    reset() {
      speakers.clear();
      lastMessage = null;
    },
  };
}
