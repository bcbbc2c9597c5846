/**
 * The rows that refer to messages, removed with them (S40, ADR 0185): the turns a deleted message
 * triggered, their steps, and the message's vectors in the packed rows. Runs inside a transaction
 * the store opened over `turns`, `steps` and `vectors`, right after the messages went.
 */
import { Dexie } from 'dexie';
import type { Message, StepRecord, TurnRecord } from '../../../core/model';
import type { DeletedMessageRows } from '../../../core/ports/memory-store';
import type { LociDb, VectorRow } from './loci-db';

/** What went with deleted messages and comes back on undo (vectors are embedded again). */
export type DependentRows = Pick<DeletedMessageRows, 'turns' | 'steps'>;

/**
 * Deletes the turns whose trigger is one of `messages`, their steps, and the message vectors of
 * those ids. Turns carry no index on their trigger, so the agents' turns are read once (small
 * records, one per turn); the agents' vector rows are walked once with a cursor and only those
 * that hold a deleted id are kept and written back (ADR 0185 on the cost).
 *
 * Kept in one function on purpose: called from a transaction body through a second level of
 * native async helpers, Dexie lost the transaction's zone (PrematureCommitError).
 */
export async function deleteDependentRows(
  db: LociDb,
  messages: readonly Message[],
): Promise<DependentRows> {
  const ids = new Set<string>(messages.map((m) => m.id));
  const agents = [...new Set(messages.map((m) => m.agentId))];
  if (ids.size === 0) return { turns: [], steps: [] };
  const turns = await db.turns
    .where('agentId')
    .anyOf(agents)
    .filter((t) => ids.has(t.triggerMessageId))
    .toArray();
  const steps: StepRecord[] = [];
  for (const turn of turns) {
    steps.push(
      ...(await db.steps
        .where('[turnId+step]')
        .between([turn.id, Dexie.minKey], [turn.id, Dexie.maxKey])
        .toArray()),
    );
  }
  await db.steps.bulkDelete(steps.map((x): [string, number] => [x.turnId, x.step]));
  await db.turns.bulkDelete(turns.map((t) => t.id));
  const holding = await db.vectors
    .where('agentId')
    .anyOf(agents)
    .filter((row) => row.kind === 'message' && row.ids.some((id) => ids.has(id)))
    .toArray();
  const emptied: number[] = [];
  const changed: VectorRow[] = [];
  for (const row of holding) {
    const kept = withoutIds(row, ids);
    if (kept.ids.length === 0) emptied.push(row.rowId!);
    else changed.push(kept);
  }
  await db.vectors.bulkPut(changed);
  await db.vectors.bulkDelete(emptied);
  return { turns: turns.sort(byStart), steps };
}

const byStart = (a: TurnRecord, b: TurnRecord): number => a.startedAt - b.startedAt;

/** The packed row without the vectors of `ids` (order of the others kept). */
export function withoutIds(row: VectorRow, ids: ReadonlySet<string>): VectorRow {
  const keep: number[] = [];
  row.ids.forEach((id, i) => {
    if (!ids.has(id)) keep.push(i);
  });
  const d = row.dimension;
  const data = new Float32Array(keep.length * d);
  keep.forEach((from, to) => data.set(row.data.subarray(from * d, from * d + d), to * d));
  return { ...row, ids: keep.map((i) => row.ids[i]!), data };
}

/** Puts turns and steps back (undo); an id that exists again aborts the transaction. */
export async function restoreDependentRows(db: LociDb, rows: DependentRows): Promise<void> {
  await db.turns.bulkAdd(rows.turns);
  await db.steps.bulkAdd(rows.steps);
}
