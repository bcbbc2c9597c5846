/**
 * The tables of the memory store, written out once. Every other list of tables — the Dexie
 * schema's latest version, the backup file, its validation, the backup worker, the import, the
 * storage dashboard — is this tuple or a subset of it derived here or beside its user, so a new
 * table is added in one place and the compiler (and `store-tables.test.ts`, against the Dexie
 * schema) points at every list that must say what to do with it.
 */

/**
 * Every table of the store, in the order a backup file lists them (the order of the
 * `BackupTables` fields since format version 1; a file's text is compared against it in tests,
 * so reordering it changes every export).
 */
export const STORE_TABLES = [
  'agents',
  'conversations',
  'blocks',
  'blockHistory',
  'messages',
  'summaries',
  'passages',
  'documents',
  'turns',
  'steps',
  'settings',
  'vectors',
] as const;

/** The name of one table of the store. */
export type StoreTableName = (typeof STORE_TABLES)[number];

/**
 * `tables` without `left`, in the same order, typed as what remains: the subsets below are
 * written as what they leave out, so a new table joins each of them unless one says otherwise.
 */
export function withoutTables<const T extends StoreTableName, const X extends StoreTableName>(
  tables: readonly T[],
  left: readonly X[],
): ReadonlyArray<Exclude<T, X>> {
  const out: Array<Exclude<T, X>> = [];
  for (const t of tables) {
    if (!(left as readonly StoreTableName[]).includes(t)) out.push(t as Exclude<T, X>);
  }
  return out;
}

/**
 * The tables whose rows belong to one agent through an `agentId` field: everything but
 * `agents` (keyed by its own `id`) and `settings` (global; an agent's settings are keys that
 * name it, see `agent-setting-keys.ts`). Deleting an agent, an import's "replace this agent"
 * and a backup's check that every row names an agent of the file go through this list.
 * `conversations` is absent from a schema v1 database and a version 1 file; users of this list
 * handle that themselves.
 */
export const AGENT_OWNED_TABLES = withoutTables(STORE_TABLES, ['agents', 'settings']);

/** A table whose rows carry the `agentId` of their agent. */
export type AgentOwnedTableName = (typeof AGENT_OWNED_TABLES)[number];

/**
 * The large tables of a library — one row per message, passage, or packed batch of vectors —
 * beside which all the others are small; readers that report progress fetch them last, so the
 * progress bar moves with the rows that take the time.
 */
export const LARGE_TABLES = [
  'messages',
  'passages',
  'vectors',
] as const satisfies readonly StoreTableName[];
