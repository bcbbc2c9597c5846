/**
 * The document passages a prompt holds (X230, ADR 0190): review marks (C15) follow the untrusted
 * text the model is actually sent, not only what the current turn read. A passage reaches the
 * prompt as a `[p:id]` line — a relevant-memories line (`- [p:id] document "…", passage 3: "…"`),
 * kept in an earlier message under `memgpt` (C17), or a hit of an `archival_memory_search` result
 * still in the queue from any earlier turn — so each such line of a user turn names one.
 */
import type { PassageId, UntrustedRead } from '../model';
import type { ChatTurn } from '../ports/llm-engine';
import type { MemoryStore } from '../ports/memory-store';

/**
 * A passage line: `[p:id] ` at the start of a line, after the `- ` of a memories line. Quoted
 * text is a JSON string (C14), so no line break inside a passage can start a line of its own: a
 * passage cannot forge a marker that pushes another out of the marks. An id that is not citable
 * is rendered quoted (`[p:"…"]`).
 */
const PASSAGE_LINE = /^(?:- )?\[p:("(?:[^"\\]|\\.)*"|[\w.:-]+)\] /;

function idOf(token: string): PassageId | undefined {
  if (!token.startsWith('"')) return token;
  try {
    const id: unknown = JSON.parse(token);
    return typeof id === 'string' ? id : undefined;
  } catch {
    // A quoted id that is not valid JSON came from no renderer of ours: it names no passage.
    return undefined;
  }
}

/**
 * The passage ids the user turns of `prompt` show, newest first (the last line of the last turn
 * first), each once. The system message is not read: it holds core memory and the summary, the
 * agent's own words.
 */
export function passageIdsInPrompt(prompt: readonly ChatTurn[]): PassageId[] {
  const ids: PassageId[] = [];
  const seen = new Set<PassageId>();
  for (let t = prompt.length - 1; t >= 0; t -= 1) {
    const turn = prompt[t];
    if (!turn || turn.role !== 'user' || !turn.content.includes('[p:')) continue;
    const lines = turn.content.split('\n');
    for (let i = lines.length - 1; i >= 0; i -= 1) {
      const match = PASSAGE_LINE.exec(lines[i] ?? '');
      const id = match?.[1] === undefined ? undefined : idOf(match[1]);
      if (id !== undefined && !seen.has(id)) {
        seen.add(id);
        ids.push(id);
      }
    }
  }
  return ids;
}

/**
 * The document passages `prompt` holds, as reads, newest first. `known` reads (the turn's own, the
 * plan's recalled lines) are used as they are; other ids are looked up in the store, and only a
 * passage of a document counts: a saved note is the agent's own words. A passage no longer
 * stored cannot be named and is left out.
 */
export async function readsInPrompt(
  prompt: readonly ChatTurn[],
  store: Pick<MemoryStore, 'getPassages' | 'getDocument'>,
  known: readonly UntrustedRead[],
): Promise<UntrustedRead[]> {
  const ids = passageIdsInPrompt(prompt);
  if (ids.length === 0) return [];
  const byId = new Map(known.map((read) => [read.passageId, read]));
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length > 0) {
    const titles = new Map<string, string>();
    for (const passage of await store.getPassages(missing)) {
      const source = passage.source;
      if (source.type !== 'document') continue;
      let title = titles.get(source.documentId);
      if (title === undefined) {
        title = (await store.getDocument(source.documentId))?.title ?? 'a document';
        titles.set(source.documentId, title);
      }
      byId.set(passage.id, {
        passageId: passage.id,
        documentId: source.documentId,
        title,
        chunk: source.chunk,
      });
    }
  }
  return ids.flatMap((id) => {
    const read = byId.get(id);
    return read ? [read] : [];
  });
}
