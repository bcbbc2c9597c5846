import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { defaultConversationId, type Summary } from '../../../core/model';
import { DexieMemoryStore } from './dexie-memory-store';
import { openMemoryStore } from './index';
import { FIRST_CONVERSATION_TITLE, LociDb, type UpgradeProgress } from './loci-db';
import { sampleAgent, sampleBlock, sampleMessage, samplePassage } from './sample-records';

function summary(agentId: string, version: number, toSeq: number, at: number): Summary {
  return {
    id: `${agentId}-s${version}`,
    agentId,
    version,
    text: `Summary ${version} of ${agentId}.`,
    fromSeq: 1,
    toSeq,
    method: 'model',
    at,
    tokens: 12,
  };
}

/** Fills a database through the v1 schema declaration and the store as it runs at v1. */
async function populateV1(name: string): Promise<void> {
  const v1 = new DexieMemoryStore(new LociDb(name, 1));
  await v1.db.open();
  expect(v1.db.verno).toBe(1);
  for (const agentId of ['ana', 'bo']) {
    await v1.apply({
      agents: [sampleAgent(agentId, 1_000)],
      blocks: [sampleBlock(agentId, 'human', `Name of ${agentId}`)],
    });
    for (let i = 1; i <= 30; i += 1) {
      await v1.apply({
        messages: [
          sampleMessage(agentId, `${agentId}-m${i}`, `message ${i} of ${agentId}`, 1_000 + i),
        ],
      });
    }
    await v1.apply({
      inContext: { ids: [`${agentId}-m1`, `${agentId}-m2`], inContext: false },
      summaries: [summary(agentId, 1, 2, 2_000)],
      passages: [samplePassage(agentId, `${agentId}-p1`, 'an archival fact', 1_500)],
    });
  }
  v1.close();
}

describe('schema v2: conversations (ADR 0151)', () => {
  it('S22: a v1 database made by the v1 code path opens at v2 with every row in one conversation per agent', async () => {
    const name = `v1-to-v2-${Date.now()}`;
    await populateV1(name);
    // Every v1 row as stored, read straight from IndexedDB before the upgrade.
    const raw = new LociDb(name, 1);
    await raw.open();
    const before = {
      messages: await raw.messages.toArray(),
      summaries: await raw.summaries.toArray(),
      passages: await raw.passages.toArray(),
      blocks: await raw.blocks.toArray(),
    };
    raw.close();
    expect(before.messages).toHaveLength(60);
    expect(before.messages.every((m) => m.conversationId === undefined)).toBe(true);

    const store = await openMemoryStore(name);
    expect(store.db.verno).toBe(2);
    const after = await store.db.messages.toArray();
    expect(after).toHaveLength(before.messages.length);
    const byId = new Map(after.map((m) => [m.id, m]));
    for (const m of before.messages) {
      // Every field kept (seq included), plus the conversation of its agent.
      expect(byId.get(m.id)).toEqual({ ...m, conversationId: defaultConversationId(m.agentId) });
    }
    const summaries = await store.db.summaries.toArray();
    expect(summaries).toEqual(
      before.summaries.map((s) => ({ ...s, conversationId: defaultConversationId(s.agentId) })),
    );
    expect(await store.db.passages.toArray()).toEqual(before.passages);
    expect(await store.db.blocks.toArray()).toEqual(before.blocks);

    for (const agentId of ['ana', 'bo']) {
      const conversations = await store.listConversations(agentId);
      expect(conversations).toEqual([
        {
          id: defaultConversationId(agentId),
          agentId,
          title: FIRST_CONVERSATION_TITLE,
          createdAt: 1_000,
          updatedAt: 2_000,
        },
      ]);
      const conversationId = defaultConversationId(agentId);
      const queue = await store.queryMessages(agentId, { conversationId, inContext: true });
      expect(queue.map((m) => m.seq)).toEqual(Array.from({ length: 28 }, (_, i) => i + 3));
      expect((await store.latestSummary(agentId, conversationId))?.toSeq).toBe(2);
      expect(await store.lastSeq(agentId)).toBe(30);
    }
    store.close();
  });

  it('S23: a second conversation has its own queue and summary; seqs stay per agent; delete and undo restore every row', async () => {
    const name = `v2-two-${Date.now()}`;
    await populateV1(name);
    const store = await openMemoryStore(name);
    const second = {
      id: 'ana-c2',
      agentId: 'ana',
      title: 'Trip',
      createdAt: 5_000,
      updatedAt: 5_000,
    };
    const applied = await store.apply({
      conversations: [second],
      messages: [
        { ...sampleMessage('ana', 'ana-c2-m1', 'new chat', 6_000), conversationId: 'ana-c2' },
      ],
      summaries: [{ ...summary('ana', 2, 31, 6_001), conversationId: 'ana-c2' }],
    });
    expect(applied.messages[0]?.seq).toBe(31);
    expect((await store.listConversations('ana')).map((c) => c.id)).toEqual([
      'ana-c2',
      defaultConversationId('ana'),
    ]);
    const queue = await store.queryMessages('ana', { conversationId: 'ana-c2', inContext: true });
    expect(queue.map((m) => m.id)).toEqual(['ana-c2-m1']);
    expect((await store.latestSummary('ana', defaultConversationId('ana')))?.version).toBe(1);
    expect((await store.latestSummary('ana', 'ana-c2'))?.version).toBe(2);
    // Recall across conversations: the agent-wide query sees both.
    expect(await store.countMessages('ana')).toBe(31);

    const deleted = await store.deleteConversation('ana-c2');
    expect(deleted.messages.map((m) => m.id)).toEqual(['ana-c2-m1']);
    expect(await store.countMessages('ana')).toBe(30);
    expect(await store.getConversation('ana-c2')).toBeUndefined();
    expect((await store.getBlock('ana', 'human'))?.value).toBe('Name of ana');
    await store.restoreConversation(deleted);
    expect((await store.queryMessages('ana', { conversationId: 'ana-c2' }))[0]?.seq).toBe(31);
    expect((await store.latestSummary('ana', 'ana-c2'))?.version).toBe(2);
    await expect(store.restoreConversation(deleted)).rejects.toMatchObject({
      code: 'invalid_argument',
    });
    await store.deleteAgent('ana');
    expect(await store.listConversations('ana')).toEqual([]);
    store.close();
  });

  it('U215: the upgrade reports its progress: 0 of all messages first, then every page rewritten', async () => {
    const name = `v1-progress-${Date.now()}`;
    await populateV1(name);
    const reports: UpgradeProgress[] = [];
    const store = await openMemoryStore(name, (p) => reports.push(p));
    expect(reports).toEqual([
      { toVersion: 2, done: 0, total: 60 },
      { toVersion: 2, done: 60, total: 60 },
    ]);
    store.close();
    // Opening an up-to-date database runs no upgrade and reports nothing.
    const again: UpgradeProgress[] = [];
    (await openMemoryStore(name, (p) => again.push(p))).close();
    expect(again).toEqual([]);
  });

  it('S29: an upgrade that fails half-way is rolled back: the database stays at v1 with every row as it was', async () => {
    const name = `v1-fails-${Date.now()}`;
    await populateV1(name);
    const raw = new LociDb(name, 1);
    await raw.open();
    const before = await raw.messages.toArray();
    raw.close();
    // The first page is rewritten, then the upgrade throws (as a full disk or a crash would).
    await expect(
      openMemoryStore(name, (p) => {
        if (p.done > 0) throw new Error('disk full');
      }),
    ).rejects.toMatchObject({ code: 'storage_upgrade_failed' });
    const kept = new LociDb(name, 1);
    await kept.open();
    expect(kept.verno).toBe(1);
    expect(kept.tables.map((t) => t.name)).not.toContain('conversations');
    expect(await kept.messages.toArray()).toEqual(before);
    expect(before.every((m) => m.conversationId === undefined)).toBe(true);
    kept.close();
    // The next open upgrades it in full.
    const store = await openMemoryStore(name);
    expect(store.db.verno).toBe(2);
    expect(await store.countMessages('ana')).toBe(30);
    store.close();
  });
});
