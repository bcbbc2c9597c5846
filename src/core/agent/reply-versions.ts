/**
 * Reply versions (U331, ADR 0213): Regenerate keeps the reply it replaces, and the user can switch
 * back to any earlier one. The version shown is the kept one: its rows are ordinary messages — in
 * the conversation's queue, in recall, in search and vectors — and every other version is held,
 * whole, on the message the turn answered (`Message.otherVersions`), where no reader of messages
 * sees it. A switch is one store transaction (`swapMessages`, S43) and then a search update, as a
 * delete is (ADR 0143).
 */
import { AppError } from '../errors';
import {
  conversationOf,
  type AgentId,
  type Message,
  type MessageId,
  type ReplyVersion,
} from '../model';
import type { MemoryStore } from '../ports/memory-store';
import type { DeleteMessagesDeps } from './delete-messages';

export interface ReplyVersionsDeps {
  store: Pick<MemoryStore, 'swapMessages' | 'getMessages' | 'queryMessages'>;
  search: DeleteMessagesDeps['search'];
}

/** Where the shown version stands: 1-based, and how many there are (the pager's "2 / 3"). */
export interface VersionPosition {
  shown: number;
  count: number;
}

/** A version's place in time: its first row's seq (seqs are never handed out twice, S24). */
const firstSeq = (rows: readonly Pick<Message, 'seq'>[]): number =>
  rows.reduce((min, m) => Math.min(min, m.seq), Number.POSITIVE_INFINITY);

/**
 * The shown version's place among the trigger's versions, oldest first; null when the trigger
 * holds no other version. `shownRows` are the messages after the trigger that the chat shows.
 */
export function versionPosition(
  trigger: Pick<Message, 'otherVersions'>,
  shownRows: readonly Pick<Message, 'seq'>[],
): VersionPosition | null {
  const others = trigger.otherVersions ?? [];
  if (others.length === 0) return null;
  const shownAt = firstSeq(shownRows);
  const before = others.filter((v) => firstSeq(v.messages) < shownAt).length;
  return { shown: before + 1, count: others.length + 1 };
}

/** The trigger as stored now, and the rows after it in its conversation (the shown version). */
async function readVersion(
  deps: ReplyVersionsDeps,
  agentId: AgentId,
  triggerId: MessageId,
): Promise<{ trigger: Message; rows: Message[] }> {
  const [trigger] = await deps.store.getMessages([triggerId]);
  if (!trigger || trigger.agentId !== agentId)
    throw new AppError('not_found', 'The message this reply answers is gone.', { triggerId });
  const after = await deps.store.queryMessages(agentId, {
    conversationId: conversationOf(trigger),
    fromSeq: trigger.seq + 1,
  });
  return { trigger, rows: after };
}

/**
 * One swap (S43) and the search update that follows it: the rows the swap took out leave the
 * index, the version it brought back (if any) joins it. Resolves with what the swap removed.
 */
async function swapAndIndex(
  deps: ReplyVersionsDeps,
  agentId: AgentId,
  swap: Parameters<MemoryStore['swapMessages']>[0],
): Promise<ReplyVersion> {
  const removed = await deps.store.swapMessages(swap);
  await deps.search.removeMessages(
    agentId,
    removed.messages.map((m) => m.id),
  );
  if (swap.restore.messages.length > 0) await deps.search.indexMessages(swap.restore.messages);
  return removed;
}

/**
 * Refuses a held version that would not fit where it goes back (a hand-edited backup): every row
 * must be this agent's, in the trigger's conversation, after the trigger.
 */
function checkVersion(trigger: Message, version: ReplyVersion): void {
  const fits =
    version.messages.length > 0 &&
    version.messages.every(
      (m) =>
        m.agentId === trigger.agentId &&
        conversationOf(m) === conversationOf(trigger) &&
        m.seq > trigger.seq &&
        !('otherVersions' in m),
    ) &&
    [...version.turns, ...version.steps].every((row) => row.agentId === trigger.agentId);
  if (!fits)
    throw new AppError('invalid_argument', 'This version of the reply cannot be shown here.', {
      triggerId: trigger.id,
    });
}

/**
 * Regenerate's first half (U331): takes the shown version out of the chat and memory and holds it
 * on the trigger. Resolves with the version now held, or null when nothing followed the trigger;
 * hand it to {@link unshelveReply} when the new turn never starts.
 */
export async function shelveReply(
  deps: ReplyVersionsDeps,
  agentId: AgentId,
  triggerId: MessageId,
): Promise<ReplyVersion | null> {
  const { trigger, rows } = await readVersion(deps, agentId, triggerId);
  if (rows.length === 0) return null;
  return swapAndIndex(deps, agentId, {
    remove: rows.map((m) => m.id),
    restore: { messages: [], turns: [], steps: [] },
    holder: { id: trigger.id, otherVersions: trigger.otherVersions ?? [], holdRemoved: true },
  });
}

/** Puts a version {@link shelveReply} held back in the chat (the new turn never started). */
export async function unshelveReply(
  deps: ReplyVersionsDeps,
  agentId: AgentId,
  triggerId: MessageId,
  version: ReplyVersion,
): Promise<void> {
  await switchTo(deps, agentId, triggerId, (others) => others.find((v) => sameVersion(v, version)));
}

/**
 * Shows and keeps version `to` (1-based, oldest first) of the reply to `triggerId` (U331): the
 * shown version is held on the trigger, `to` comes back into the chat, the queue and search.
 * Resolves false when `to` is already shown or no such version exists.
 */
export async function switchReplyVersion(
  deps: ReplyVersionsDeps,
  agentId: AgentId,
  triggerId: MessageId,
  to: number,
): Promise<boolean> {
  return switchTo(deps, agentId, triggerId, (others, shownRows) => {
    const all = [...others, { messages: shownRows, turns: [], steps: [] }].sort(
      (a, b) => firstSeq(a.messages) - firstSeq(b.messages),
    );
    const target = all[to - 1];
    return target && others.includes(target) ? target : undefined;
  });
}

const sameVersion = (a: ReplyVersion, b: ReplyVersion): boolean =>
  a.messages[0]?.id === b.messages[0]?.id;

async function switchTo(
  deps: ReplyVersionsDeps,
  agentId: AgentId,
  triggerId: MessageId,
  choose: (others: ReplyVersion[], shownRows: Message[]) => ReplyVersion | undefined,
): Promise<boolean> {
  const { trigger, rows } = await readVersion(deps, agentId, triggerId);
  const others = trigger.otherVersions ?? [];
  const target = choose(others, rows);
  if (!target) return false;
  checkVersion(trigger, target);
  await swapAndIndex(deps, agentId, {
    remove: rows.map((m) => m.id),
    restore: target,
    holder: {
      id: trigger.id,
      otherVersions: others.filter((v) => v !== target),
      holdRemoved: true,
    },
  });
  return true;
}

/** What Undo of {@link deleteReplyVersion} needs: the versions the trigger held before. */
export interface DeletedVersion {
  triggerId: MessageId;
  heldBefore: ReplyVersion[];
}

/**
 * Delete of a reply that has other versions (U331): the shown version is deleted — not held —
 * and the newest other version takes its place, in the chat and in memory. Resolves with the
 * deleted rows and what {@link restoreReplyVersion} needs to undo it.
 */
export async function deleteReplyVersion(
  deps: ReplyVersionsDeps,
  agentId: AgentId,
  triggerId: MessageId,
): Promise<{ removed: ReplyVersion; undo: DeletedVersion }> {
  const { trigger, rows } = await readVersion(deps, agentId, triggerId);
  const others = trigger.otherVersions ?? [];
  const next = others.reduce<ReplyVersion | undefined>(
    (newest, v) => (!newest || firstSeq(v.messages) > firstSeq(newest.messages) ? v : newest),
    undefined,
  );
  if (!next) throw new AppError('not_found', 'This reply has no other version.', { triggerId });
  checkVersion(trigger, next);
  const removed = await swapAndIndex(deps, agentId, {
    remove: rows.map((m) => m.id),
    restore: next,
    holder: { id: trigger.id, otherVersions: others.filter((v) => v !== next) },
  });
  return { removed, undo: { triggerId, heldBefore: others } };
}

/** Undo of {@link deleteReplyVersion}: the deleted version is shown again, the others held. */
export async function restoreReplyVersion(
  deps: ReplyVersionsDeps,
  agentId: AgentId,
  removed: ReplyVersion,
  undo: DeletedVersion,
): Promise<void> {
  const { trigger, rows } = await readVersion(deps, agentId, undo.triggerId);
  checkVersion(trigger, removed);
  await swapAndIndex(deps, agentId, {
    remove: rows.map((m) => m.id),
    restore: removed,
    holder: { id: trigger.id, otherVersions: undo.heldBefore },
  });
}
