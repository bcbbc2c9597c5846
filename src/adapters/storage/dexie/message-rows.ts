/**
 * Message and conversation rows of the Dexie store: the row shape, seqs that are never handed
 * out twice, conversations kept current by writes, and delete with undo (S22–S24). Each function
 * runs inside a transaction the store opened over the tables it names.
 */
import { Dexie } from 'dexie';
import { AppError } from '../../../core/errors';
import type {
  AgentId,
  ConversationId,
  Message,
  MessageId,
  ReplyVersion,
  Summary,
} from '../../../core/model';
import { conversationOf } from '../../../core/model';
import type { DeletedConversation } from '../../../core/ports/memory-store';
import type { LociDb, MessageRow } from './loci-db';

/** The settings key of an agent's seq high-water mark (deleted seqs are never reused). */
const seqMarkKey = (agentId: AgentId): string => `seqMark:${agentId}`;

export function toRow(m: Message): MessageRow {
  return { ...m, ctx: m.inContext ? 1 : 0 };
}

export function fromRow(row: MessageRow): Message {
  const { ctx: _ctx, ...message } = row;
  return message;
}

/** The agent's highest seq so far, deleted ones included (messages, settings). */
export async function lastSeqIn(db: LociDb, agentId: AgentId): Promise<number> {
  const last = await db.messages
    .where('[agentId+seq]')
    .between([agentId, Dexie.minKey], [agentId, Dexie.maxKey])
    .last();
  const mark = (await db.settings.get(seqMarkKey(agentId)))?.value;
  return Math.max(last?.seq ?? 0, typeof mark === 'number' ? mark : 0);
}

/** Remembers the agent's highest seq before rows go, so a later write never reuses one (S24). */
async function markSeq(db: LociDb, agentId: AgentId): Promise<void> {
  await db.settings.put({ key: seqMarkKey(agentId), value: await lastSeqIn(db, agentId) });
}

/**
 * Creates the conversations new rows belong to, refuses rows of another agent's conversation,
 * and moves a conversation's `updatedAt` forward on a new message (conversations).
 */
export async function touchConversations(
  db: LociDb,
  messages: Message[],
  summaries: Summary[],
): Promise<void> {
  const latest = new Map<ConversationId, { agentId: AgentId; at: number }>();
  for (const row of [...messages, ...summaries]) {
    const id = conversationOf(row);
    const seen = latest.get(id);
    const at = 'seq' in row ? row.at : (seen?.at ?? row.at);
    if (!seen || at > seen.at) latest.set(id, { agentId: row.agentId, at });
  }
  for (const [id, { agentId, at }] of latest) {
    const found = await db.conversations.get(id);
    if (!found) {
      await db.conversations.put({
        id,
        agentId,
        title: 'Conversation',
        createdAt: at,
        updatedAt: at,
      });
    } else if (found.agentId !== agentId) {
      throw new AppError(
        'invalid_argument',
        `Conversation "${id}" belongs to another agent; nothing was saved.`,
      );
    } else if (messages.some((m) => conversationOf(m) === id) && at > found.updatedAt) {
      await db.conversations.put({ ...found, updatedAt: at });
    }
  }
}

/**
 * Deletes a conversation with its messages and summaries, returned whole for undo; the store
 * then deletes what refers to those messages (`deleteDependentRows`, S40).
 */
export async function deleteConversationRows(
  db: LociDb,
  id: ConversationId,
): Promise<Omit<DeletedConversation, 'turns' | 'steps'>> {
  const conversation = await db.conversations.get(id);
  if (!conversation) throw new AppError('not_found', `No conversation with id "${id}".`);
  await markSeq(db, conversation.agentId);
  const messages = await db.messages
    .where('[conversationId+seq]')
    .between([id, Dexie.minKey], [id, Dexie.maxKey])
    .toArray();
  const summaries = await db.summaries
    .where('[conversationId+version]')
    .between([id, Dexie.minKey], [id, Dexie.maxKey])
    .toArray();
  await db.messages.bulkDelete(messages.map((m) => m.id));
  await db.summaries.bulkDelete(summaries.map((x) => x.id));
  await db.conversations.delete(id);
  return { conversation, messages: messages.map(fromRow), summaries };
}

/** Puts a deleted conversation back; refuses, changing nothing, when any part exists again. */
export async function restoreConversationRows(
  db: LociDb,
  deleted: DeletedConversation,
): Promise<void> {
  if (await db.conversations.get(deleted.conversation.id))
    throw new AppError(
      'invalid_argument',
      `Conversation "${deleted.conversation.title}" already exists; nothing was restored.`,
    );
  await db.conversations.put(deleted.conversation);
  // bulkAdd: a message id that exists again is a conflict and aborts the whole restore.
  await db.messages.bulkAdd(deleted.messages.map(toRow));
  await db.summaries.bulkAdd(deleted.summaries);
}

/**
 * Deletes messages, returned whole in seq order for undo (messages, settings); the store then
 * deletes what refers to them (`deleteDependentRows`, S40).
 */
export async function deleteMessageRows(db: LociDb, ids: MessageId[]): Promise<Message[]> {
  const rows = (await db.messages.bulkGet(ids)).filter((r): r is MessageRow => r !== undefined);
  const removed = rows.map(fromRow).sort((a, b) => a.seq - b.seq);
  for (const agentId of new Set(removed.map((m) => m.agentId))) await markSeq(db, agentId);
  await db.messages.bulkDelete(removed.map((m) => m.id));
  return removed;
}

/** Puts deleted messages back with their ids and seqs; refuses when an id or seq is taken. */
export async function restoreMessageRows(db: LociDb, messages: Message[]): Promise<void> {
  for (const m of messages) {
    const taken = await db.messages.where('[agentId+seq]').equals([m.agentId, m.seq]).count();
    if (taken > 0 || (await db.messages.get(m.id)))
      throw new AppError(
        'invalid_argument',
        `Message ${m.id} cannot be restored: it is already there.`,
      );
  }
  await db.messages.bulkAdd(messages.map(toRow));
}

/** Sets (or, with none, clears) the versions a message holds of its reply (U331, S43). */
export async function setOtherVersions(
  db: LociDb,
  id: MessageId,
  otherVersions: ReplyVersion[],
): Promise<void> {
  const row = await db.messages.get(id);
  if (!row) throw new AppError('not_found', `No message ${id} to hold the reply's versions.`);
  const { otherVersions: _before, ...rest } = row;
  await db.messages.put(otherVersions.length > 0 ? { ...rest, otherVersions } : rest);
}
