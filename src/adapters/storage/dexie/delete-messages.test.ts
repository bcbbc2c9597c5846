import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { StepRecord, TurnRecord } from '../../../core/model';
import type { MemoryStore } from '../../../core/ports/memory-store';
import { InMemoryStore } from '../../../testing/in-memory-store';
import { openMemoryStore, type DexieMemoryStore } from './index';
import { sampleAgent, sampleMessage } from './sample-records';

let n = 0;
const open: DexieMemoryStore[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

const stores: [string, () => Promise<MemoryStore>][] = [
  [
    'Dexie',
    async () => {
      n += 1;
      const store = await openMemoryStore(`delete-messages-${n}-${Date.now()}`);
      open.push(store);
      return store;
    },
  ],
  ['in-memory', () => Promise.resolve(new InMemoryStore())],
];

async function seeded(make: () => Promise<MemoryStore>): Promise<MemoryStore> {
  const store = await make();
  await store.apply({
    agents: [sampleAgent('a1')],
    messages: [
      sampleMessage('a1', 'm1', 'my cat is Miso', 10),
      sampleMessage('a1', 'm2', 'nice name', 11, 'assistant'),
      sampleMessage('a1', 'm3', 'I moved to Lisbon', 12),
      sampleMessage('a1', 'm4', 'how exciting', 13, 'assistant'),
    ],
  });
  return store;
}

describe.each(stores)('S24: deleting and restoring messages (%s store)', (_name, make) => {
  it('removes the rows from every read and hands them back whole', async () => {
    const store = await seeded(make);
    const before = await store.getMessages(['m3', 'm4']);
    const removed = await store.deleteMessages(['m4', 'm3', 'nope']);
    expect(removed.messages).toEqual(before);
    expect((await store.queryMessages('a1')).map((m) => m.id)).toEqual(['m1', 'm2']);
    expect(await store.countMessages('a1', { inContext: true })).toBe(2);
    expect(await store.getMessages(['m3'])).toEqual([]);
  });

  it('never reuses a deleted seq, so a restore after new messages keeps its place', async () => {
    const store = await seeded(make);
    const removed = await store.deleteMessages(['m3', 'm4']);
    expect(await store.lastSeq('a1')).toBe(4);
    const { messages } = await store.apply({ messages: [sampleMessage('a1', 'm5', 'later', 14)] });
    expect(messages[0]?.seq).toBe(5);
    await store.restoreMessages(removed);
    const all = await store.queryMessages('a1');
    expect(all.map((m) => [m.id, m.seq])).toEqual([
      ['m1', 1],
      ['m2', 2],
      ['m3', 3],
      ['m4', 4],
      ['m5', 5],
    ]);
    expect(all.find((m) => m.id === 'm3')).toEqual(removed.messages[0]);
  });

  it('refuses a restore that would overwrite a message, and writes none of it', async () => {
    const store = await seeded(make);
    const removed = await store.deleteMessages(['m4']);
    await store.restoreMessages(removed);
    const [m1] = await store.getMessages(['m1']);
    const again = { ...removed, messages: [...removed.messages, m1!] };
    await expect(store.restoreMessages(again)).rejects.toMatchObject({
      code: 'invalid_argument',
    });
    expect(await store.countMessages('a1')).toBe(4);
  });
});

const turn = (id: string, trigger: string, startedAt: number): TurnRecord => ({
  id,
  agentId: 'a1',
  triggerMessageId: trigger,
  status: 'done',
  steps: 1,
  startedAt,
});

const step = (turnId: string): StepRecord => ({
  turnId,
  agentId: 'a1',
  step: 0,
  raw: '{}',
  tool: 'send_message',
  result: 'sent',
  ok: true,
  heartbeat: false,
  at: 20,
});

/** m1 triggered t1 and, retried, t2; m3 triggered t3. */
async function withTurns(make: () => Promise<MemoryStore>): Promise<MemoryStore> {
  const store = await seeded(make);
  await store.apply({
    turns: [turn('t1', 'm1', 10), turn('t2', 'm1', 11), turn('t3', 'm3', 12)],
    steps: [step('t1'), step('t2'), step('t3')],
  });
  return store;
}

describe.each(stores)('S40: nothing refers to a deleted message (%s store)', (_name, make) => {
  it('S40: deleting a message deletes the turns it triggered and their steps; Undo puts them back', async () => {
    const store = await withTurns(make);
    const removed = await store.deleteMessages(['m1']);
    expect(removed.turns.map((t) => t.id)).toEqual(['t1', 't2']);
    expect(removed.steps.map((x) => x.turnId).sort()).toEqual(['t1', 't2']);
    expect((await store.listTurns('a1')).map((t) => t.id)).toEqual(['t3']);
    expect(await store.listSteps('t1')).toEqual([]);
    expect(await store.listSteps('t3')).toHaveLength(1);
    await store.restoreMessages(removed);
    expect((await store.listTurns('a1')).map((t) => t.id)).toEqual(['t1', 't2', 't3']);
    expect(await store.listSteps('t2')).toEqual([step('t2')]);
  });

  it('S40: deleting a reply keeps the turn of the message that asked for it', async () => {
    const store = await withTurns(make);
    const removed = await store.deleteMessages(['m2']);
    expect(removed.turns).toEqual([]);
    expect((await store.listTurns('a1')).map((t) => t.id)).toEqual(['t1', 't2', 't3']);
  });

  it('S40: deleting a conversation deletes the turns its messages triggered; Undo puts them back', async () => {
    const store = await withTurns(make);
    const [conversation] = await store.listConversations('a1');
    const deleted = await store.deleteConversation(conversation!.id);
    expect(deleted.turns.map((t) => t.id)).toEqual(['t1', 't2', 't3']);
    expect(await store.listTurns('a1')).toEqual([]);
    expect(await store.listSteps('t3')).toEqual([]);
    await store.restoreConversation(deleted);
    expect((await store.listTurns('a1')).map((t) => t.id)).toEqual(['t1', 't2', 't3']);
    expect(await store.listSteps('t3')).toEqual([step('t3')]);
  });
});

describe('S40: the Dexie store drops the vectors of deleted messages', () => {
  const packed = (ids: string[]) => ({
    kind: 'message' as const,
    modelId: 'fixture',
    dimension: 2,
    ids,
    data: new Float32Array(ids.flatMap((_, i) => [i + 1, -(i + 1)])),
  });

  it('S40: a deleted message leaves its packed row, the others keep their vectors', async () => {
    n += 1;
    const store = await openMemoryStore(`delete-vectors-${n}-${Date.now()}`);
    open.push(store);
    await seeded(() => Promise.resolve(store));
    await store.putVectors('a1', packed(['m1', 'm2', 'm3']));
    await store.deleteMessages(['m2']);
    const [row, ...more] = await store.loadVectors('a1');
    expect(more).toEqual([]);
    expect(row?.ids).toEqual(['m1', 'm3']);
    expect([...row!.data]).toEqual([1, -1, 3, -3]);
    const [conversation] = await store.listConversations('a1');
    await store.deleteConversation(conversation!.id);
    expect(await store.loadVectors('a1')).toEqual([]);
  });
});
