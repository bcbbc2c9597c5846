/**
 * What a restored backup brought, in words a person uses (U156): agents, conversations'
 * messages, documents and saved memories — not table names. Bookkeeping rows (block versions,
 * turn and step records, vectors, settings) are part of those and are not counted apart.
 */
type Counts = Partial<Record<string, number>>;

const SHOWN: readonly [table: string, one: string, many: string][] = [
  ['agents', 'agent', 'agents'],
  ['messages', 'message', 'messages'],
  ['documents', 'document', 'documents'],
  ['passages', 'saved memory or document passage', 'saved memories and document passages'],
];

function list(parts: readonly string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/**
 * One sentence of what was restored; when the file (of an earlier version) held records that
 * referred to deleted messages, a second says how many were left out (S41).
 */
export function describeImportSummary(summary: Counts): string {
  const { leftOut = 0, ...tables } = summary;
  const note =
    leftOut > 0
      ? ` ${leftOut.toLocaleString('en-US')} ${leftOut === 1 ? 'record that referred to a deleted message was' : 'records that referred to deleted messages were'} left out.`
      : '';
  const parts = SHOWN.flatMap(([table, one, many]) => {
    const n = tables[table] ?? 0;
    return n > 0 ? [`${n.toLocaleString('en-US')} ${n === 1 ? one : many}`] : [];
  });
  if (parts.length > 0) return `Restored ${list(parts)}.${note}`;
  const any = Object.values(tables).some((n) => (n ?? 0) > 0);
  return (
    (any
      ? 'Restored settings and memory history; no new agents, messages or documents.'
      : 'Nothing new: everything in this backup is already here.') + note
  );
}
