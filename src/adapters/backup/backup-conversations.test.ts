/**
 * Backups and conversations (S25, S26, ADR 0154): the conversations table travels in a backup,
 * a version 1 backup (before conversations) still imports into each agent's "First
 * conversation", and a message or summary naming another agent's conversation is refused with
 * its JSON path, nothing written.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { BackupFile } from '../../core/backup/backup-format';
import { defaultConversationId, type Conversation, type Summary } from '../../core/model';
import { DexieMemoryStore, LociDb, openMemoryStore } from '../storage/dexie';
import { sampleAgent, sampleBlock, sampleMessage } from '../storage/dexie/sample-records';
import { exportBackup, readBackupTables } from './export-backup';
import { importBackup } from './import-backup';
import { importBackupFile } from './read-backup-blob';

const stores: DexieMemoryStore[] = [];
afterEach(() => stores.splice(0).forEach((s) => s.close()));
let dbs = 0;
async function fresh(): Promise<DexieMemoryStore> {
  dbs += 1;
  const s = await openMemoryStore(`backup-conversations-${dbs}-${Date.now()}`);
  stores.push(s);
  return s;
}

function conversation(agentId: string, id: string, title: string, at: number): Conversation {
  return { id, agentId, title, createdAt: at, updatedAt: at };
}

function summary(agentId: string, conversationId: string, text: string, at: number): Summary {
  return {
    id: `${conversationId}-s1`,
    agentId,
    conversationId,
    version: 1,
    text,
    fromSeq: 1,
    toSeq: 2,
    method: 'model',
    at,
    tokens: 3,
  };
}

/** Agent `a` with "Family" and "Trip planning" (each with a queue and a summary); agent `b`. */
async function twoConversations(): Promise<DexieMemoryStore> {
  const store = await fresh();
  await store.apply({
    agents: [sampleAgent('a'), sampleAgent('b')],
    blocks: [sampleBlock('a', 'human', 'Name: Ana'), sampleBlock('b', 'human', 'Name: Bo')],
    conversations: [
      conversation('a', 'a-family', 'Family', 1000),
      conversation('a', 'a-trip', 'Trip planning', 1000),
      conversation('b', 'b-only', 'Bo’s chat', 1000),
    ],
  });
  const at = (conversationId: string, id: string, text: string, time: number) => ({
    ...sampleMessage(conversationId.slice(0, 1), id, text, time),
    conversationId,
  });
  await store.apply({
    messages: [
      at('a-family', 'a-m1', 'My sister Ingrid lives in Bergen.', 1001),
      at('a-trip', 'a-m2', 'We fly to Oslo in May.', 1002),
      at('a-family', 'a-m3', 'Ingrid has two cats.', 1003),
      at('a-trip', 'a-m4', 'Book the hotel near the station.', 1004),
      at('b-only', 'b-m1', 'Bo likes chess.', 1005),
    ],
    summaries: [
      summary('a', 'a-family', 'Family talk.', 1006),
      summary('a', 'a-trip', 'Trip talk.', 1007),
    ],
  });
  return store;
}

async function rejectedImport(file: BackupFile) {
  const target = await fresh();
  const error = (await importBackup(target, JSON.stringify(file)).then(
    () => null,
    (e: unknown) => e,
  )) as { code: string; message: string; details?: { path?: string } } | null;
  if (error === null) throw new Error('the backup was accepted');
  return {
    code: error.code,
    path: error.details?.path ?? '',
    message: error.message,
    written: (await target.listAgents()).length > 0,
  };
}

describe('backups with conversations (S25, S26)', () => {
  it('S25: a backup with two conversations of one agent round-trips: each keeps its title, queue and summary', async () => {
    const source = await twoConversations();
    const text = await exportBackup(source, { now: () => 5 });
    const file = JSON.parse(text) as BackupFile;
    expect(file.version).toBe(2);
    expect(file.tables.conversations?.map((c) => c.title).sort()).toEqual([
      'Bo’s chat',
      'Family',
      'Trip planning',
    ]);

    const target = await fresh();
    const summary = await importBackup(target, text);
    expect(summary.conversations).toBe(3);
    expect(await readBackupTables(target)).toEqual(await readBackupTables(source));
    expect(await target.listConversations('a')).toEqual(await source.listConversations('a'));
    const queue = async (id: string) =>
      (await target.queryMessages('a', { conversationId: id, inContext: true })).map((m) => m.text);
    expect(await queue('a-family')).toEqual([
      'My sister Ingrid lives in Bergen.',
      'Ingrid has two cats.',
    ]);
    expect(await queue('a-trip')).toEqual([
      'We fly to Oslo in May.',
      'Book the hotel near the station.',
    ]);
    expect((await target.latestSummary('a', 'a-trip'))?.text).toBe('Trip talk.');
    expect((await target.latestSummary('a', 'a-family'))?.text).toBe('Family talk.');

    // The same file read as a stream, record by record (X171), brings the same conversations.
    const streamed = await fresh();
    await importBackupFile(streamed, new Blob([text]), {}, 0);
    expect(await readBackupTables(streamed)).toEqual(await readBackupTables(source));
  });

  it('S25: a one-agent backup holds that agent’s conversations only; importing it replaces them', async () => {
    const source = await twoConversations();
    const text = await exportBackup(source, { agentId: 'a' });
    const file = JSON.parse(text) as BackupFile;
    expect(file.tables.conversations?.map((c) => c.id).sort()).toEqual(['a-family', 'a-trip']);

    // A conversation made after the export goes when the backup replaces the agent; b's stays.
    await source.apply({ conversations: [conversation('a', 'a-later', 'Later', 3000)] });
    await importBackup(source, text);
    expect((await source.listConversations('a')).map((c) => c.id).sort()).toEqual([
      'a-family',
      'a-trip',
    ]);
    expect((await source.listConversations('b')).map((c) => c.title)).toEqual(['Bo’s chat']);
  });

  it('S25: a version 1 backup (made from a schema v1 database, no conversations) imports into each agent’s "First conversation"', async () => {
    dbs += 1;
    const v1 = new DexieMemoryStore(new LociDb(`backup-conversations-v1-${dbs}-${Date.now()}`, 1));
    await v1.db.open();
    stores.push(v1);
    for (const a of ['a', 'b']) {
      await v1.apply({
        agents: [sampleAgent(a, 900)],
        messages: [
          sampleMessage(a, `${a}-m1`, `first of ${a}`, 1000),
          sampleMessage(a, `${a}-m2`, `second of ${a}`, 1001),
          sampleMessage(a, `${a}-m3`, `third of ${a}`, 1002),
        ],
      });
      // A v1 summary names no conversation.
      const { conversationId: _none, ...v1Summary } = summary(a, a, `Summary of ${a}.`, 1003);
      await v1.apply({
        inContext: { ids: [`${a}-m1`], inContext: false },
        summaries: [v1Summary],
      });
    }
    const file = JSON.parse(await exportBackup(v1)) as BackupFile;
    // What a build before conversations wrote: version 1, no conversations table, no field.
    file.version = 1;
    delete file.tables.conversations;
    expect(file.tables.messages.some((m) => 'conversationId' in m)).toBe(false);

    const target = await fresh();
    const written = await importBackup(target, JSON.stringify(file));
    expect(written.messages).toBe(6);
    for (const a of ['a', 'b']) {
      const [only, ...rest] = await target.listConversations(a);
      expect(rest).toEqual([]);
      expect(only).toEqual({
        id: defaultConversationId(a),
        agentId: a,
        title: 'First conversation',
        createdAt: 900,
        updatedAt: 1003,
      });
      // The queue and the summary are that conversation's (found by its indexes).
      const queue = await target.queryMessages(a, {
        conversationId: defaultConversationId(a),
        inContext: true,
      });
      expect(queue.map((m) => m.text)).toEqual([`second of ${a}`, `third of ${a}`]);
      expect((await target.latestSummary(a, defaultConversationId(a)))?.text).toBe(
        `Summary of ${a}.`,
      );
    }
  });

  it('S26: a message or summary naming another agent’s conversation is refused at its path; nothing is written', async () => {
    const source = await twoConversations();
    const file = () => JSON.parse(JSON.stringify(exported)) as BackupFile;
    const exported = JSON.parse(await exportBackup(source)) as BackupFile;

    const crossMessage = file();
    const i = crossMessage.tables.messages.findIndex((m) => m.id === 'b-m1');
    crossMessage.tables.messages[i]!.conversationId = 'a-family';
    const message = await rejectedImport(crossMessage);
    expect(message).toMatchObject({
      code: 'backup_invalid',
      path: `tables.messages[${i}].conversationId`,
      written: false,
    });
    expect(message.message).toContain('of agent "a", not of its own agent "b"');

    const crossSummary = file();
    const j = crossSummary.tables.summaries.findIndex((s) => s.id === 'a-trip-s1');
    crossSummary.tables.summaries[j]!.conversationId = 'b-only';
    expect(await rejectedImport(crossSummary)).toMatchObject({
      code: 'backup_invalid',
      path: `tables.summaries[${j}].conversationId`,
      written: false,
    });

    const missing = file();
    missing.tables.messages[0]!.conversationId = 'nowhere';
    const gone = await rejectedImport(missing);
    expect(gone.path).toBe('tables.messages[0].conversationId');
    expect(gone.message).toContain('not in the file');

    const orphan = file();
    orphan.tables.conversations![0]!.agentId = 'ghost';
    expect((await rejectedImport(orphan)).path).toBe('tables.conversations[0].agentId');

    const noTable = file();
    delete noTable.tables.conversations;
    expect(await rejectedImport(noTable)).toMatchObject({
      code: 'backup_invalid',
      path: 'tables.conversations',
    });

    const badTitle = file();
    (badTitle.tables.conversations![1] as unknown as { title: number }).title = 7;
    expect((await rejectedImport(badTitle)).path).toBe('tables.conversations[1].title');

    // A version 1 file has no table, but its rows still may not cross agents.
    const v1 = file();
    v1.version = 1;
    delete v1.tables.conversations;
    for (const m of v1.tables.messages) delete m.conversationId;
    for (const s of v1.tables.summaries) delete s.conversationId;
    const k = v1.tables.messages.findIndex((m) => m.id === 'b-m1');
    v1.tables.messages[k]!.conversationId = defaultConversationId('a');
    expect(await rejectedImport(v1)).toMatchObject({
      path: `tables.messages[${k}].conversationId`,
      written: false,
    });
  });

  it('S26: a conversation id owned by an agent outside the file is refused, changing nothing', async () => {
    const store = await twoConversations();
    const before = await readBackupTables(store);
    const other = await fresh();
    await other.apply({
      agents: [sampleAgent('c')],
      conversations: [conversation('c', 'a-family', 'Not yours', 10)],
    });
    await expect(importBackup(store, await exportBackup(other))).rejects.toMatchObject({
      code: 'backup_invalid',
      details: { path: 'tables.conversations[0].id' },
    });
    expect(await readBackupTables(store)).toEqual(before);
  });
});
