/**
 * One line per model step for the chat's inline step list (rule U4): what the model did, in
 * words, e.g. `searched your chats for "birthday" → 3 results` or
 * `updated core memory: human`. Pure, so it is tested in Node.
 */
export interface StepSummary {
  /** The one-line description. */
  text: string;
  /** Coarse kind, for an icon and colour. */
  kind: 'reply' | 'search' | 'memory' | 'invalid' | 'other';
}

function quoted(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? '');
  const flat = text.replace(/\s+/g, ' ').trim();
  return `"${flat.length > 60 ? `${flat.slice(0, 59)}…` : flat}"`;
}

/** "results 1–5 of 37 …" → 37; "No results …" → 0; otherwise null. */
export function resultCount(result: string): number | null {
  if (/^No results/i.test(result)) return 0;
  const match = /\bof (\d+)\b/.exec(result) ?? /^Page \d+ is empty: (\d+) results/.exec(result);
  return match?.[1] ? Number(match[1]) : null;
}

function results(result: string): string {
  const n = resultCount(result);
  return n === null ? '' : ` → ${n} result${n === 1 ? '' : 's'}`;
}

export function describeStep(
  tool: string | null,
  args: Record<string, unknown> | null,
  ok: boolean,
  result: string,
): StepSummary {
  const a = args ?? {};
  if (!ok || tool === null) {
    // What the model was told (the result) is for the model; the expanded view shows it (U323).
    return { kind: 'invalid', text: 'wrote a step Loci could not use, and was asked again' };
  }
  switch (tool) {
    case 'send_message':
      return { kind: 'reply', text: 'sent a message' };
    case 'conversation_search':
      return {
        kind: 'search',
        text: `searched your chats for ${quoted(a.query)}${results(result)}`,
      };
    case 'conversation_search_date':
      return {
        kind: 'search',
        text: `searched your chats from ${String(a.start ?? '?')} to ${String(a.end ?? '?')}${results(result)}`,
      };
    case 'archival_memory_search':
      return {
        kind: 'search',
        text: `searched archival memory for ${quoted(a.query)}${results(result)}`,
      };
    case 'archival_memory_insert':
      return { kind: 'memory', text: `saved to archival memory: ${quoted(a.content)}` };
    case 'core_memory_append':
    case 'core_memory_replace':
      return { kind: 'memory', text: `updated core memory: ${String(a.label ?? '?')}` };
    default:
      return { kind: 'other', text: `called ${tool}` };
  }
}
