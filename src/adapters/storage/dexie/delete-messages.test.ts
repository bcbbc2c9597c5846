import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
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
    expect(removed).toEqual(before);
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
    expect(all.find((m) => m.id === 'm3')).toEqual(removed[0]);
  });

  it('refuses a restore that would overwrite a message, and writes none of it', async () => {
    const store = await seeded(make);
    const removed = await store.deleteMessages(['m4']);
    await store.restoreMessages(removed);
    const [m1] = await store.getMessages(['m1']);
    await expect(store.restoreMessages([...removed, m1!])).rejects.toMatchObject({
      code: 'invalid_argument',
    });
    expect(await store.countMessages('a1')).toBe(4);
  });
});
