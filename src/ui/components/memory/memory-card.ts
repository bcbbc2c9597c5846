/**
 * A paged-in memory as a person reads it (U180): who said it, when, where it came from, and its
 * text — read back from the exact prompt line (A19 `[2026-03-04 Sam] "…"`, archival
 * `[p:id] source: "…"`), whose text is a JSON string, so nothing is guessed. A line in any other
 * form is shown as it is.
 */
export interface MemoryCard {
  /** "Sam", "You", "Assistant"; absent when the line does not say. */
  who?: string;
  /** A human date, "4 March 2026"; absent when the line has none. */
  when?: string;
  /** "Saved note", "Document “report.md”, passage 3", … */
  source?: string;
  text: string;
}

// With several conversations the author is followed by where it was said (A23):
// `[2026-03-04 Sam, in "Trip planning"] "…"`, `…, in this conversation]`.
const RECALL =
  /^\[(\d{4})-(\d{2})-(\d{2}) (.+?)(?:, in ("(?:[^"\\]|\\.)*"|this conversation|another conversation))?\] ("(?:[^"\\]|\\.)*")$/s;
const ARCHIVAL = /^\[p:[^\]]+\] (.+?): ("(?:[^"\\]|\\.)*")$/s;

const ROLE_NAME: Record<string, string> = {
  user: 'You',
  assistant: 'Assistant',
  system: 'System',
  tool: 'Tool',
};

function unquote(json: string): string | undefined {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

function humanDate(year: string, month: string, day: string): string | undefined {
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (Number.isNaN(date.getTime())) return undefined;
  return date.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

function humanSource(source: string): string {
  // `document "title", passage 3` → `Document “title”, passage 3`.
  const doc = /^document ("(?:[^"\\]|\\.)*")(, .*)?$/s.exec(source);
  if (doc) {
    const title = unquote(doc[1] ?? '');
    if (title !== undefined) return `Document “${title}”${doc[2] ?? ''}`;
  }
  return source.charAt(0).toUpperCase() + source.slice(1);
}

/** `"Trip"` → `In “Trip”`; null when the quoted title is not valid JSON. */
function conversationSource(where: string): string | null {
  if (where === 'this conversation') return 'This conversation';
  if (where === 'another conversation') return 'Another conversation';
  const title = unquote(where);
  return title === undefined ? null : `In “${title}”`;
}

/** The card for one prompt line (`text` of a ContextMemory). */
export function memoryCard(line: string): MemoryCard {
  const recall = RECALL.exec(line);
  if (recall) {
    const [, year = '', month = '', day = '', author = '', where, quoted = ''] = recall;
    const text = unquote(quoted);
    const source = where === undefined ? undefined : conversationSource(where);
    if (text !== undefined && source !== null) {
      const when = humanDate(year, month, day);
      return {
        who: ROLE_NAME[author] ?? author,
        ...(when ? { when } : {}),
        ...(source ? { source } : {}),
        text,
      };
    }
  }
  const archival = ARCHIVAL.exec(line);
  if (archival) {
    const text = unquote(archival[2] ?? '');
    if (text !== undefined) return { source: humanSource(archival[1] ?? ''), text };
  }
  return { text: line };
}
