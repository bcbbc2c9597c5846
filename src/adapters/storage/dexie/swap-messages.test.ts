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
      const store = await openMemoryStore(`swap-messages-${n}-${Date.now()}`);
      open.push(store);
      return store;
    },
  ],
  ['in-memory', () => Promise.resolve(new InMemoryStore())],
];

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

/** u1 asked; r1 answered it (turn t1); a Continue event e1 after it triggered t2 with reply c1. */
async function seeded(make: () => Promise<MemoryStore>): Promise<MemoryStore> {
  const store = await make();
  await store.apply({
    agents: [sampleAgent('a1')],
    messages: [
      sampleMessage('a1', 'u0', 'earlier', 9),
      sampleMessage('a1', 'u1', 'tell me a story', 10),
      { ...sampleMessage('a1', 'r1', 'once upon a time', 11, 'assistant'), turnId: 't1' },
      { ...sampleMessage('a1', 'e1', '', 12, 'event'), speaker: 'continue', turnId: 't2' },
      { ...sampleMessage('a1', 'c1', 'the end', 13, 'assistant'), turnId: 't2' },
    ],
    turns: [turn('t1', 'u1', 10), turn('t2', 'e1', 12)],
    steps: [step('t1'), step('t2')],
  });
  return store;
}

const ids = async (store: MemoryStore) => (await store.queryMessages('a1')).map((m) => m.id);
const none = { messages: [], turns: [], steps: [] };

describe.each(stores)('S43: a reply version moves in one transaction (%s store)', (_n, make) => {
  it('S43: the removed rows and their turns become a version the trigger holds', async () => {
    const store = await seeded(make);
    const removed = await store.swapMessages({
      remove: ['r1', 'e1', 'c1'],
      restore: none,
      holder: { id: 'u1', otherVersions: [], holdRemoved: true },
    });
    expect(removed.messages.map((m) => m.id)).toEqual(['r1', 'e1', 'c1']);
    expect(removed.turns.map((t) => t.id)).toEqual(['t2']);
    expect(removed.steps).toEqual([step('t2')]);
    expect(await ids(store)).toEqual(['u0', 'u1']);
    expect((await store.listTurns('a1')).map((t) => t.id)).toEqual(['t1']);
    const [holder] = await store.getMessages(['u1']);
    expect(holder?.otherVersions).toEqual([removed]);
    expect(await store.countMessages('a1', { inContext: true })).toBe(2);
  });

  it('S43: a held version comes back whole, seqs kept, and the shown one is held instead', async () => {
    const store = await seeded(make);
    const before = await store.queryMessages('a1');
    const held = await store.swapMessages({
      remove: ['r1', 'e1', 'c1'],
      restore: none,
      holder: { id: 'u1', otherVersions: [], holdRemoved: true },
    });
    const { messages } = await store.apply({
      messages: [{ ...sampleMessage('a1', 'r2', 'a new story', 14, 'assistant'), turnId: 't3' }],
      turns: [turn('t3', 'u1', 14)],
    });
    expect(messages[0]?.seq).toBe(6);
    const back = await store.swapMessages({
      remove: ['r2'],
      restore: held,
      holder: { id: 'u1', otherVersions: [], holdRemoved: true },
    });
    expect(back.messages.map((m) => m.id)).toEqual(['r2']);
    const after = await store.queryMessages('a1');
    expect(after.map((m) => m.id)).toEqual(['u0', 'u1', 'r1', 'e1', 'c1']);
    expect(after.slice(2)).toEqual(before.slice(2));
    expect(after[1]?.otherVersions?.map((v) => v.messages.map((m) => m.id))).toEqual([['r2']]);
    expect((await store.listTurns('a1')).map((t) => t.id).sort()).toEqual(['t1', 't2', 't3']);
    expect(await store.listSteps('t2')).toEqual([step('t2')]);
    // With no version left to hold, the field goes.
    await store.swapMessages({
      remove: [],
      restore: none,
      holder: { id: 'u1', otherVersions: [] },
    });
    expect((await store.getMessages(['u1']))[0]).not.toHaveProperty('otherVersions');
  });

  it('S43: a restore whose seq is taken, or a holder that is gone, writes nothing', async () => {
    const store = await seeded(make);
    const [u0] = await store.getMessages(['u0']);
    const clash = { messages: [{ ...u0!, id: 'x1' }], turns: [], steps: [] };
    await expect(
      store.swapMessages({
        remove: ['r1'],
        restore: clash,
        holder: { id: 'u1', otherVersions: [], holdRemoved: true },
      }),
    ).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(
      store.swapMessages({
        remove: ['r1'],
        restore: none,
        holder: { id: 'gone', otherVersions: [], holdRemoved: true },
      }),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect(await ids(store)).toEqual(['u0', 'u1', 'r1', 'e1', 'c1']);
    expect((await store.getMessages(['u1']))[0]).not.toHaveProperty('otherVersions');
    expect((await store.listTurns('a1')).map((t) => t.id)).toEqual(['t1', 't2']);
  });

  it('S40: deleting the trigger takes its versions with it, and Undo brings them back', async () => {
    const store = await seeded(make);
    await store.swapMessages({
      remove: ['r1', 'e1', 'c1'],
      restore: none,
      holder: { id: 'u1', otherVersions: [], holdRemoved: true },
    });
    const removed = await store.deleteMessages(['u1']);
    expect(await ids(store)).toEqual(['u0']);
    expect(removed.messages[0]?.otherVersions).toHaveLength(1);
    await store.restoreMessages(removed);
    expect((await store.getMessages(['u1']))[0]?.otherVersions).toHaveLength(1);
  });
});
