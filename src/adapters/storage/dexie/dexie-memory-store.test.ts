import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../../core/errors';
import { openMemoryStore, type DexieMemoryStore } from './index';
import {
  sampleAgent,
  sampleBlock,
  sampleDocument,
  sampleMessage,
  samplePassage,
} from './sample-records';

let n = 0;
const open: DexieMemoryStore[] = [];
async function freshStore(): Promise<DexieMemoryStore> {
  n += 1;
  const store = await openMemoryStore(`store-test-${n}-${Date.now()}`);
  open.push(store);
  return store;
}
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

describe('DexieMemoryStore', () => {
  it('S1: apply writes every tier of a change set and reads them back', async () => {
    const store = await freshStore();
    const doc = sampleDocument('a1', 'd1');
    await store.apply({
      agents: [sampleAgent('a1')],
      blocks: [sampleBlock('a1', 'human', 'Name: Ana')],
      messages: [
        sampleMessage('a1', 'm1', 'hello', 10),
        sampleMessage('a1', 'm2', 'hi', 11, 'assistant'),
      ],
      summaries: [
        {
          id: 's1',
          agentId: 'a1',
          version: 1,
          text: 'sum',
          fromSeq: 1,
          toSeq: 1,
          method: 'extractive',
          at: 12,
          tokens: 1,
        },
      ],
      passages: [
        samplePassage('a1', 'p1', 'fact', 13, new Float32Array([1, 0, 0])),
        samplePassage('a1', 'p2', 'chunk', 14, null, {
          type: 'document',
          documentId: 'd1',
          chunk: 0,
          start: 0,
          end: 5,
        }),
      ],
      documents: [doc],
      turns: [
        {
          id: 't1',
          agentId: 'a1',
          triggerMessageId: 'm1',
          status: 'done',
          steps: 1,
          startedAt: 10,
        },
      ],
      steps: [
        {
          turnId: 't1',
          agentId: 'a1',
          step: 0,
          raw: '{}',
          result: 'ok',
          ok: true,
          heartbeat: false,
          at: 11,
        },
      ],
    });
    expect((await store.getAgent('a1'))?.name).toBe('Agent a1');
    expect((await store.getBlock('a1', 'human'))?.value).toBe('Name: Ana');
    expect(await store.blockHistory('a1', 'human')).toHaveLength(1);
    const msgs = await store.queryMessages('a1');
    expect(msgs.map((m) => [m.id, m.seq])).toEqual([
      ['m1', 1],
      ['m2', 2],
    ]);
    expect(msgs[0]).not.toHaveProperty('ctx');
    expect((await store.latestSummary('a1'))?.id).toBe('s1');
    const [p1] = await store.getPassages(['p1']);
    expect(p1?.embedding).toBeInstanceOf(Float32Array);
    expect(Array.from(p1!.embedding!)).toEqual([1, 0, 0]);
    expect((await store.queryPassages('a1', { documentId: 'd1' })).map((p) => p.id)).toEqual([
      'p2',
    ]);
    expect(await store.countPassages('a1', { sourceType: 'memory' })).toBe(1);
    expect((await store.findDocumentByHash('a1', doc.contentHash))?.id).toBe('d1');
    expect((await store.listTurns('a1', 'done')).map((t) => t.id)).toEqual(['t1']);
    expect(await store.listSteps('t1')).toHaveLength(1);
  });

  it('S2: seqs are monotonic per agent across change sets and agents', async () => {
    const store = await freshStore();
    await store.apply({ agents: [sampleAgent('a'), sampleAgent('b')] });
    const first = await store.apply({
      messages: [
        sampleMessage('a', 'a1', 'x', 1),
        sampleMessage('b', 'b1', 'x', 1),
        sampleMessage('a', 'a2', 'x', 2),
      ],
    });
    expect(first.messages.map((m) => `${m.id}:${m.seq}`)).toEqual(['a1:1', 'b1:1', 'a2:2']);
    const second = await store.apply({ messages: [sampleMessage('a', 'a3', 'y', 3)] });
    expect(second.messages[0]?.seq).toBe(3);
    expect(await store.lastSeq('a')).toBe(3);
    expect(await store.lastSeq('b')).toBe(1);
    expect(await store.lastSeq('nobody')).toBe(0);
  });

  it('S3: a failing change set leaves nothing written (one transaction)', async () => {
    const store = await freshStore();
    await store.apply({ agents: [sampleAgent('a')], messages: [sampleMessage('a', 'm1', 'x', 1)] });
    const before = await store.stats();
    const failing = store.apply({
      agents: [{ ...sampleAgent('a'), name: 'renamed' }],
      blocks: [sampleBlock('a', 'human', 'v')],
      passages: [samplePassage('a', 'p1', 'text', 2)],
      // duplicate id: the add fails after the other writes were issued
      messages: [sampleMessage('a', 'm2', 'y', 2), sampleMessage('a', 'm1', 'dup', 3)],
    });
    await expect(failing).rejects.toBeInstanceOf(AppError);
    await expect(failing).rejects.toMatchObject({ code: 'storage_failed' });
    expect((await store.getAgent('a'))?.name).toBe('Agent a');
    expect(await store.stats()).toEqual(before);
    expect(await store.lastSeq('a')).toBe(1);
  });

  it('S4: queryMessages filters by window, seq range, roles and dates, pages and reverses', async () => {
    const store = await freshStore();
    const msgs = Array.from({ length: 10 }, (_, i) =>
      sampleMessage('a', `m${i + 1}`, `t${i}`, 100 + i, i % 2 === 0 ? 'user' : 'assistant'),
    );
    await store.apply({ agents: [sampleAgent('a')], messages: msgs });
    await store.apply({ inContext: { ids: ['m1', 'm2', 'm3'], inContext: false } });
    const ids = (ms: { id: string }[]) => ms.map((m) => m.id);
    expect(ids(await store.queryMessages('a', { inContext: false }))).toEqual(['m1', 'm2', 'm3']);
    expect(await store.countMessages('a', { inContext: true })).toBe(7);
    expect((await store.getMessages(['m2']))[0]?.inContext).toBe(false);
    expect(ids(await store.queryMessages('a', { fromSeq: 4, toSeq: 6 }))).toEqual([
      'm4',
      'm5',
      'm6',
    ]);
    expect(ids(await store.queryMessages('a', { roles: ['assistant'], limit: 2 }))).toEqual([
      'm2',
      'm4',
    ]);
    expect(ids(await store.queryMessages('a', { from: 103, to: 104 }))).toEqual(['m4', 'm5']);
    expect(ids(await store.queryMessages('a', { reverse: true, offset: 1, limit: 2 }))).toEqual([
      'm9',
      'm8',
    ]);
    expect(await store.countMessages('a', { roles: ['user'], inContext: true })).toBe(3);
  });

  it('X189: a one-by-one read gives what the one-result read gives, and stays live for a changed row', async () => {
    const store = await freshStore();
    const msgs = Array.from({ length: 10 }, (_, i) =>
      sampleMessage('a', `m${i + 1}`, `t${i}`, 100 + i, i % 2 === 0 ? 'user' : 'assistant'),
    );
    await store.apply({ agents: [sampleAgent('a')], messages: msgs });
    const queries = [
      { reverse: true, limit: 4 },
      { reverse: true, offset: 1, limit: 2 },
      { fromSeq: 3, toSeq: 7 },
      { roles: ['assistant' as const], limit: 2 },
      { conversationId: 'a', reverse: true, limit: 3 },
    ];
    for (const q of queries) {
      expect(await store.queryMessages('a', { ...q, oneByOne: true })).toEqual(
        await store.queryMessages('a', q),
      );
    }
    // A row that changes in place (here: summarised out of the queue) re-runs a live query that
    // read it one by one, as it does one that read it in one result.
    const seen: boolean[][] = [];
    // Through the store's own port (LiveQueries.watch), as the UI watches it.
    const subscription = store.watch(
      () => store.queryMessages('a', { reverse: true, limit: 3, oneByOne: true }),
      { next: (rows) => seen.push(rows.map((m) => m.inContext)), error: () => undefined },
    );
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    await store.apply({ inContext: { ids: ['m9'], inContext: false } });
    await vi.waitFor(() => expect(seen.at(-1)).toEqual([true, false, true]));
    subscription.unsubscribe();
  });

  it('S5: deleteAgent removes the agent and everything it owns, and nothing of others', async () => {
    const store = await freshStore();
    for (const id of ['a', 'b']) {
      await store.apply({
        agents: [sampleAgent(id)],
        blocks: [sampleBlock(id, 'human', 'v')],
        messages: [sampleMessage(id, `${id}-m`, 'x', 1)],
        passages: [samplePassage(id, `${id}-p`, 'x', 1)],
        documents: [sampleDocument(id, `${id}-d`)],
      });
      await store.putVectors(id, {
        kind: 'message',
        modelId: 'm',
        dimension: 2,
        ids: [`${id}-m`],
        data: new Float32Array(2),
      });
    }
    await store.deleteAgent('a');
    const a = await store.stats('a');
    for (const tier of Object.values(a)) expect(tier.rows).toBe(0);
    expect(await store.loadVectors('a')).toEqual([]);
    const b = await store.stats('b');
    expect([b.agents.rows, b.blocks.rows, b.messages.rows, b.passages.rows]).toEqual([1, 1, 1, 1]);
    expect(await store.loadVectors('b')).toHaveLength(1);
  });

  it("S30: deleteAgent removes the settings that name the agent, and no other agent's", async () => {
    const store = await freshStore();
    for (const id of ['a', 'ab']) await store.apply({ agents: [sampleAgent(id)] });
    const keys = (id: string) => [
      `ui.conversation:${id}`,
      `writer:${id}`,
      `strategy:memgpt:${id}`,
      `strategy:forgetting:${id}:${id}:c2`,
    ];
    for (const key of [...keys('a'), ...keys('ab'), 'profile.displayName'])
      await store.setSetting(key, 1);
    await store.deleteAgent('a');
    for (const key of keys('a')) expect(await store.getSetting(key), key).toBeUndefined();
    for (const key of [...keys('ab'), 'profile.displayName'])
      expect(await store.getSetting(key), key).toBe(1);
  });

  it('S6: deleteDocument removes the document and its passages and returns their ids', async () => {
    const store = await freshStore();
    const src = (chunk: number) => ({
      type: 'document' as const,
      documentId: 'd1',
      chunk,
      start: 0,
      end: 1,
    });
    await store.apply({
      agents: [sampleAgent('a')],
      documents: [sampleDocument('a', 'd1')],
      passages: [
        samplePassage('a', 'p1', 'x', 1, null, src(0)),
        samplePassage('a', 'p2', 'y', 2, null, src(1)),
        samplePassage('a', 'p3', 'z', 3),
      ],
    });
    expect((await store.deleteDocument('d1')).sort()).toEqual(['p1', 'p2']);
    expect(await store.getDocument('d1')).toBeUndefined();
    expect((await store.queryPassages('a')).map((p) => p.id)).toEqual(['p3']);
    await expect(store.deleteDocument('d1')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('S7: a quota failure becomes storage_quota_exceeded and nothing is half-written', async () => {
    const store = await freshStore();
    await store.apply({ agents: [sampleAgent('a')] });
    const proto = globalThis.IDBObjectStore.prototype;
    const realPut = proto.put;
    const realAdd = proto.add;
    let calls = 0;
    function quota(this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
      calls += 1;
      if (this.name === 'passages') throw new DOMException('quota', 'QuotaExceededError');
      return realPut.apply(this, args);
    }
    proto.put = quota;
    proto.add = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['add']>) {
      calls += 1;
      return realAdd.apply(this, args);
    };
    try {
      await expect(
        store.apply({
          blocks: [sampleBlock('a', 'human', 'v')],
          messages: [sampleMessage('a', 'm1', 'x', 1)],
          passages: [samplePassage('a', 'p1', 'x', 1)],
        }),
      ).rejects.toMatchObject({ code: 'storage_quota_exceeded' });
    } finally {
      proto.put = realPut;
      proto.add = realAdd;
    }
    expect(calls).toBeGreaterThan(1);
    const s = await store.stats('a');
    expect([s.blocks.rows, s.messages.rows, s.passages.rows]).toEqual([0, 0, 0]);
  });

  it('S8: stats counts rows per tier with approximate bytes, embeddings included', async () => {
    const store = await freshStore();
    await store.apply({
      agents: [sampleAgent('a')],
      passages: [
        samplePassage('a', 'p1', 'x', 1, new Float32Array(384)),
        samplePassage('a', 'p2', 'y', 1, new Float32Array(384)),
      ],
    });
    const s = await store.stats();
    expect(s.passages.rows).toBe(2);
    expect(s.passages.bytes).toBeGreaterThan(2 * 384 * 4);
    expect(s.messages).toEqual({ rows: 0, bytes: 0 });
  });

  it('S9: packed message vectors round-trip with their model id and dimension', async () => {
    const store = await freshStore();
    const data = Float32Array.from([1, 2, 3, 4, 5, 6]);
    await store.putVectors('a', {
      kind: 'message',
      modelId: 'e5',
      dimension: 3,
      ids: ['m1', 'm2'],
      data,
    });
    await store.putVectors('a', {
      kind: 'message',
      modelId: 'other',
      dimension: 2,
      ids: ['m1'],
      data: new Float32Array(2),
    });
    const e5 = await store.loadVectors('a', 'e5');
    expect(e5).toHaveLength(1);
    expect(e5[0]?.ids).toEqual(['m1', 'm2']);
    expect(Array.from(e5[0]!.data)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await store.loadVectors('a')).toHaveLength(2);
    await expect(
      store.putVectors('a', {
        kind: 'message',
        modelId: 'e5',
        dimension: 3,
        ids: ['m1'],
        data: new Float32Array(2),
      }),
    ).rejects.toMatchObject({ code: 'embedding_dimension_mismatch' });
    expect((await store.vectorStats('a')).vectors).toBe(3);
  });

  it('S10: settings round-trip', async () => {
    const store = await freshStore();
    expect(await store.getSetting('x')).toBeUndefined();
    await store.setSetting('x', { a: 1 });
    expect(await store.getSetting<{ a: number }>('x')).toEqual({ a: 1 });
  });

  it('S11: updateSetting reads and writes in one transaction: concurrent updates all count', async () => {
    const store = await freshStore();
    const plain = await freshStore();
    // Twenty read-modify-writes at once. With get + set they race and most increments are lost;
    // updateSetting serialises them.
    await Promise.all(
      Array.from({ length: 20 }, () =>
        store.updateSetting<number>('count', (current) => (current ?? 0) + 1),
      ),
    );
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        const current = (await plain.getSetting<number>('count')) ?? 0;
        await plain.setSetting('count', current + 1);
      }),
    );
    expect(await store.getSetting('count')).toBe(20);
    expect(await plain.getSetting('count')).toBeLessThan(20);
    // Returning the current value writes nothing and resolves with it.
    const same = await store.updateSetting<number>('count', (current) => current);
    expect(same).toBe(20);
    // An error thrown by the update aborts the write.
    await expect(
      store.updateSetting<number>('count', () => {
        throw new AppError('invalid_argument', 'bad state');
      }),
    ).rejects.toMatchObject({ code: 'invalid_argument' });
    expect(await store.getSetting('count')).toBe(20);
  });

  it('S9: small vector batches are packed into the last row; big ones get their own', async () => {
    const store = await freshStore();
    const one = (id: string, x: number) => ({
      kind: 'message' as const,
      modelId: 'e5',
      dimension: 2,
      ids: [id],
      data: Float32Array.from([x, x]),
    });
    for (let i = 0; i < 10; i += 1) await store.putVectors('a', one(`m${i}`, i));
    expect((await store.vectorStats('a')).rows).toBe(1);
    const big = {
      kind: 'message' as const,
      modelId: 'e5',
      dimension: 2,
      ids: Array.from({ length: 300 }, (_, i) => `b${i}`),
      data: new Float32Array(600),
    };
    await store.putVectors('a', big);
    await store.putVectors('a', one('m0', 42)); // a later vector for m0: comes last, so it wins on load
    const batches = await store.loadVectors('a', 'e5');
    expect(batches.map((b) => b.ids.length)).toEqual([10, 300, 1]);
    expect(batches[0]?.ids.slice(0, 3)).toEqual(['m0', 'm1', 'm2']);
    expect(Array.from(batches[0]!.data.slice(2, 4))).toEqual([1, 1]);
    expect(Array.from(batches[2]!.data)).toEqual([42, 42]);
  });
});
