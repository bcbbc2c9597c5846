import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { BackupFile } from '../../core/backup/backup-format';
import { openMemoryStore, type DexieMemoryStore } from '../storage/dexie';
import {
  sampleAgent,
  sampleBlock,
  sampleDocument,
  sampleMessage,
  samplePassage,
} from '../storage/dexie/sample-records';
import { backupFileParts, exportBackup, readBackupTables } from './export-backup';
import { importBackup } from './import-backup';
import { importBackupFile } from './read-backup-blob';

const stores: DexieMemoryStore[] = [];
afterEach(() => stores.splice(0).forEach((s) => s.close()));
let dbs = 0;
async function fresh(): Promise<DexieMemoryStore> {
  dbs += 1;
  const s = await openMemoryStore(`backup-test-${dbs}-${Date.now()}`);
  stores.push(s);
  return s;
}

async function populated(): Promise<DexieMemoryStore> {
  const store = await fresh();
  for (const a of ['a', 'b']) {
    const doc = sampleDocument(a, `${a}-doc`);
    await store.apply({
      agents: [sampleAgent(a)],
      blocks: [sampleBlock(a, 'human', 'Name: Ana'), sampleBlock(a, 'persona', 'kind')],
      messages: [
        sampleMessage(a, `${a}-m1`, '我的生日是五月', 1000),
        {
          ...sampleMessage(a, `${a}-m2`, '', 1001, 'assistant'),
          toolCall: { name: 'send_message', arguments: { message: 'hi', n: [1, { x: null }] } },
          turnId: `${a}-t1`,
        },
        { ...sampleMessage(a, `${a}-m3`, 'ok', 1002, 'tool'), toolResult: 'ok', inContext: false },
      ],
      summaries: [
        {
          id: `${a}-s1`,
          agentId: a,
          version: 1,
          text: 'sum',
          fromSeq: 1,
          toSeq: 1,
          method: 'model',
          at: 1003,
          tokens: 2,
        },
      ],
      documents: [doc],
      passages: [
        samplePassage(a, `${a}-p1`, 'fact', 1004, Float32Array.from([0.25, -1, 3.5])),
        samplePassage(a, `${a}-p2`, 'chunk', 1005, null, {
          type: 'document',
          documentId: doc.id,
          chunk: 0,
          page: 2,
          start: 0,
          end: 5,
          heading: 'H',
        }),
      ],
      turns: [
        {
          id: `${a}-t1`,
          agentId: a,
          triggerMessageId: `${a}-m1`,
          status: 'done',
          steps: 1,
          stopReason: 'end_turn',
          startedAt: 1000,
          endedAt: 1002,
        },
      ],
      steps: [
        {
          turnId: `${a}-t1`,
          agentId: a,
          step: 0,
          raw: '{}',
          tool: 'send_message',
          arguments: { message: 'hi' },
          result: 'ok',
          ok: true,
          heartbeat: false,
          at: 1001,
        },
      ],
    });
    const v2 = sampleBlock(a, 'human', 'Name: Ana Lee', 2, 2000);
    await store.apply({
      blocks: [
        {
          ...v2,
          history: {
            ...v2.history,
            source: { type: 'tool', turnId: `${a}-t1`, step: 0, tool: 'core_memory_append' },
          },
        },
      ],
    });
    await store.putVectors(a, {
      kind: 'message',
      modelId: 'e5',
      dimension: 2,
      ids: [`${a}-m1`, `${a}-m2`],
      data: Float32Array.from([1, 2, 3, 4]),
    });
  }
  await store.setSetting('theme', { dark: true });
  return store;
}

describe('backup', () => {
  it('B1: export → wipe → import gives back exactly the same data, embeddings included', async () => {
    const source = await populated();
    const text = await exportBackup(source, { now: () => 5 });
    const before = await readBackupTables(source);
    expect(before.blockHistory).toHaveLength(6);
    const target = await fresh();
    const summary = await importBackup(target, text);
    expect(summary.messages).toBe(6);
    expect(await readBackupTables(target)).toEqual(before);
    const [p] = await target.getPassages(['a-p1']);
    expect(p?.embedding).toEqual(Float32Array.from([0.25, -1, 3.5]));
    expect((await target.queryMessages('a', { inContext: false })).map((m) => m.id)).toEqual([
      'a-m3',
    ]);
    expect((await target.loadVectors('b', 'e5'))[0]?.data).toEqual(Float32Array.from([1, 2, 3, 4]));
    expect(await target.getSetting('theme')).toEqual({ dark: true });
  });

  it('B2: a one-agent backup holds only that agent and replaces only it on import', async () => {
    const source = await populated();
    const text = await exportBackup(source, { agentId: 'a' });
    const file = JSON.parse(text) as BackupFile;
    expect(file.tables.agents.map((a) => a.id)).toEqual(['a']);
    expect(file.tables.messages.every((m) => m.agentId === 'a')).toBe(true);
    expect(file.tables.settings).toEqual([]);
    await expect(exportBackup(source, { agentId: 'ghost' })).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(JSON.parse(await exportBackup(source, { passphrase: '' })).format).toBe('loci-backup');
    const bBefore = await readBackupTables(source, 'b');
    await source.apply({ messages: [sampleMessage('a', 'a-extra', 'later', 3000)] });
    await importBackup(source, text);
    expect(await source.getMessages(['a-extra'])).toEqual([]);
    expect(await source.countMessages('a')).toBe(3);
    expect(await readBackupTables(source, 'b')).toEqual(bBefore);
  });

  type Mutation = [name: string, mutate: (f: BackupFile) => void, code: string, path: string];
  const cases: Mutation[] = [
    ['future version', (f) => void (f.version = 99), 'backup_unsupported_version', 'version'],
    [
      'wrong format',
      (f) => void ((f as { format: string }).format = 'zip'),
      'backup_invalid',
      'format',
    ],
    [
      'wrong type',
      (f) => void ((f.tables.messages[0] as unknown as { seq: string }).seq = '1'),
      'backup_invalid',
      'tables.messages[0].seq',
    ],
    [
      'unknown field',
      (f) => void Object.assign(f.tables.agents[0]!, { admin: true }),
      'backup_invalid',
      'tables.agents[0].admin',
    ],
    [
      'missing field',
      (f) =>
        void delete (f.tables.passages[0] as Partial<BackupFile['tables']['passages'][0]>).text,
      'backup_invalid',
      'tables.passages[0].text',
    ],
    [
      'too long',
      (f) => void (f.tables.agents[0]!.name = 'x'.repeat(1001)),
      'backup_invalid',
      'tables.agents[0].name',
    ],
    [
      'duplicate id',
      (f) => void f.tables.messages.push({ ...f.tables.messages[0]!, seq: 99 }),
      'backup_invalid',
      'tables.messages[6]',
    ],
    [
      'duplicate seq',
      (f) => void (f.tables.messages[1]!.seq = f.tables.messages[0]!.seq),
      'backup_invalid',
      'tables.messages[1]',
    ],
    [
      'unknown agent',
      (f) => void (f.tables.summaries[0]!.agentId = 'ghost'),
      'backup_invalid',
      'tables.summaries[0].agentId',
    ],
    [
      'step of no turn',
      (f) => void (f.tables.steps[0]!.turnId = 'ghost'),
      'backup_invalid',
      'tables.steps[0].turnId',
    ],
    [
      "turn triggered by another agent's message",
      (f) => void (f.tables.turns[0]!.triggerMessageId = 'b-m1'),
      'backup_invalid',
      'tables.turns[0].agentId',
    ],
    [
      'block without history',
      (f) => void (f.tables.blocks[0]!.version = 7),
      'backup_invalid',
      'tables.blocks[0].version',
    ],
    [
      'passage of missing document',
      (f) => void f.tables.documents.splice(0, 1),
      'backup_invalid',
      'source.documentId',
    ],
    [
      'embedding dimension',
      (f) => void (f.tables.passages.find((p) => p.embedding)!.dimension = 4),
      'backup_invalid',
      'embedding',
    ],
    [
      'embedding not base64',
      (f) => void (f.tables.passages.find((p) => p.embedding)!.embedding = '!!!!'),
      'backup_invalid',
      'embedding',
    ],
    [
      "vector of another agent's message",
      (f) => void (f.tables.vectors[0]!.ids[0] = 'b-m1'),
      'backup_invalid',
      'tables.vectors[0].ids[0]',
    ],
    [
      'step of a turn never in the file',
      (f) => void (f.tables.steps[0]!.turnId = 'ghost'),
      'backup_invalid',
      'tables.steps[0].turnId',
    ],
    [
      'vector data length',
      (f) => void (f.tables.vectors[0]!.dimension = 3),
      'backup_invalid',
      'tables.vectors[0].data',
    ],
    [
      'bad block source',
      (f) => void ((f.tables.blockHistory[0] as { source: unknown }).source = { type: 'hack' }),
      'backup_invalid',
      'source.type',
    ],
    [
      '__proto__ key',
      (f) =>
        void Object.defineProperty(f.tables.settings[0]!.value as object, '__proto__', {
          value: { polluted: 1 },
          enumerable: true,
        }),
      'backup_invalid',
      'tables.settings[0].value.__proto__',
    ],
    [
      'constructor key',
      (f) => void Object.assign(f.tables.steps[0]!.arguments!, { constructor: 1 }),
      'backup_invalid',
      'constructor',
    ],
    [
      'one-agent scope with two agents',
      (f) => void (f.scope = { type: 'agent', agentId: 'a' }),
      'backup_invalid',
      'tables.agents',
    ],
  ];

  for (const [name, mutate, code, path] of cases) {
    it(`B3: rejects ${name} with ${code} at ${path}, changing nothing`, async () => {
      const store = await populated();
      const file = JSON.parse(await exportBackup(store)) as BackupFile;
      await store.apply({ messages: [sampleMessage('a', 'a-new', 'newer than the backup', 4000)] });
      const before = await readBackupTables(store);
      mutate(file);
      const error = await importBackup(store, JSON.stringify(file)).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ code });
      expect((error as { details: { path: string } }).details.path).toContain(path);
      expect(await readBackupTables(store)).toEqual(before);
    });
  }

  it('S41: a file of an earlier version whose turn and vector refer to a deleted message imports, those records left out and counted', async () => {
    const source = await populated();
    const file = JSON.parse(await exportBackup(source)) as BackupFile;
    // What earlier versions wrote after "Delete" on a-m1: the message gone, its turn, the turn's
    // step and the message's vector still there.
    file.tables.messages = file.tables.messages.filter((m) => m.id !== 'a-m1');
    file.tables.settings.push({ key: 'seqMark:a', value: 3 });
    const target = await fresh();
    const summary = await importBackup(target, JSON.stringify(file));
    expect(summary.leftOut).toBe(3);
    expect(summary.turns).toBe(1);
    // Just what this version keeps after the same delete (S40).
    await source.deleteMessages(['a-m1']);
    expect(await readBackupTables(target)).toEqual(await readBackupTables(source));
    expect((await target.loadVectors('a'))[0]?.ids).toEqual(['a-m2']);
    const streamed = await fresh();
    const viaFile = await importBackupFile(streamed, new Blob([JSON.stringify(file)]), {}, 0);
    expect(viaFile.leftOut).toBe(3);
    expect(await readBackupTables(streamed)).toEqual(await readBackupTables(source));
  });

  it('B3: rejects text that is not JSON, and an id owned by an agent outside the file', async () => {
    const store = await populated();
    const before = await readBackupTables(store);
    await expect(importBackup(store, '{"format": ')).rejects.toMatchObject({
      code: 'backup_invalid',
    });
    const other = await fresh();
    await other.apply({
      agents: [sampleAgent('c')],
      messages: [sampleMessage('c', 'a-m1', 'clash', 1)],
    });
    const text = await exportBackup(other);
    await expect(importBackup(store, text)).rejects.toMatchObject({
      code: 'backup_invalid',
      details: { path: 'tables.messages[0].id' },
    });
    expect(await readBackupTables(store)).toEqual(before);
  });

  it('B4: an encrypted backup round-trips with its passphrase and hides the text', async () => {
    const source = await populated();
    const text = await exportBackup(source, { passphrase: 'correct horse' });
    const envelope = JSON.parse(text) as { format: string; kdf: { iterations: number } };
    expect(envelope.format).toBe('loci-backup-encrypted');
    expect(envelope.kdf.iterations).toBeGreaterThanOrEqual(600_000);
    expect(text).not.toContain('Name: Ana');
    const target = await fresh();
    await importBackup(target, text, { passphrase: 'correct horse' });
    expect(await readBackupTables(target)).toEqual(await readBackupTables(source));
  });

  it('B5: a wrong or missing passphrase, or a tampered file, is a clear error that changes nothing', async () => {
    const source = await populated();
    const text = await exportBackup(source, { passphrase: 'correct horse' });
    const target = await fresh();
    const before = await readBackupTables(target);
    await expect(importBackup(target, text, { passphrase: 'wrong' })).rejects.toMatchObject({
      code: 'backup_wrong_passphrase',
    });
    await expect(importBackup(target, text)).rejects.toMatchObject({
      code: 'backup_wrong_passphrase',
    });
    const envelope = JSON.parse(text) as { ciphertext: string; kdf: { iterations: number } };
    const flipped = envelope.ciphertext[10] === 'A' ? 'B' : 'A';
    const tampered = {
      ...envelope,
      ciphertext: envelope.ciphertext.slice(0, 10) + flipped + envelope.ciphertext.slice(11),
    };
    await expect(
      importBackup(target, JSON.stringify(tampered), { passphrase: 'correct horse' }),
    ).rejects.toMatchObject({
      code: 'backup_wrong_passphrase',
    });
    const weak = { ...envelope, kdf: { ...envelope.kdf, iterations: 1000 } };
    await expect(
      importBackup(target, JSON.stringify(weak), { passphrase: 'correct horse' }),
    ).rejects.toMatchObject({
      code: 'backup_invalid',
    });
    expect(await readBackupTables(target)).toEqual(before);
  });

  it("B6: the names on messages and the user's display name travel in a backup; a bad name is refused", async () => {
    const source = await fresh();
    await source.apply({
      agents: [sampleAgent('a')],
      messages: [
        { ...sampleMessage('a', 'a-m1', 'I bake bread.', 1000), author: 'Ada' },
        {
          ...sampleMessage('a', 'a-m2', 'Lovely!', 1001, 'assistant'),
          author: 'Loci',
          toolCall: { name: 'send_message', arguments: { message: 'Lovely!' } },
        },
      ],
    });
    await source.setSetting('profile.displayName', 'Ada');
    const text = await exportBackup(source);
    const target = await fresh();
    await importBackup(target, text);
    const messages = await target.queryMessages('a');
    expect(messages.map((m) => m.author)).toEqual(['Ada', 'Loci']);
    expect(await target.getSetting('profile.displayName')).toBe('Ada');

    const file = JSON.parse(text) as BackupFile;
    (file.tables.messages[0] as { author: unknown }).author = 42;
    const other = await fresh();
    const error = await importBackup(other, JSON.stringify(file)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'backup_invalid' });
    expect((error as { details: { path: string } }).details.path).toContain('author');
    expect(await other.listAgents()).toEqual([]);
  });
});

/** Imports `file` edited by `change` into a fresh store: the error, and whether anything was written. */
async function rejected(
  change: (file: BackupFile) => void,
): Promise<{ code: string; path: string; message: string; written: boolean }> {
  const source = await populated();
  const file = JSON.parse(await exportBackup(source)) as BackupFile;
  change(file);
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

describe('sampling settings in a backup (S27)', () => {
  it("S27: an agent's temperature and top-p export and import back; an agent without them stays without", async () => {
    const source = await populated();
    const a = (await source.getAgent('a'))!;
    await source.apply({ agents: [{ ...a, sampling: { temperature: 1.25, topP: 0.4 } }] });
    const target = await fresh();
    await importBackup(target, await exportBackup(source));
    expect((await target.getAgent('a'))?.sampling).toEqual({ temperature: 1.25, topP: 0.4 });
    expect((await target.getAgent('b'))?.sampling).toBeUndefined();
  });

  it('S27: a temperature or top-p out of range (NaN, -1, 5, 0) is refused with its JSON path; nothing is written', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['temperature NaN', { temperature: NaN, topP: 0.9 }, 'tables.agents[0].sampling.temperature'],
      ['temperature -1', { temperature: -1, topP: 0.9 }, 'tables.agents[0].sampling.temperature'],
      ['temperature 5', { temperature: 5, topP: 0.9 }, 'tables.agents[0].sampling.temperature'],
      ['top-p 0', { temperature: 0.7, topP: 0 }, 'tables.agents[0].sampling.topP'],
      ['top-p 5', { temperature: 0.7, topP: 5 }, 'tables.agents[0].sampling.topP'],
      ['top-p missing', { temperature: 0.7 }, 'tables.agents[0].sampling.topP'],
      [
        'an unknown field',
        { temperature: 0.7, topP: 0.9, topK: 4 },
        'tables.agents[0].sampling.topK',
      ],
    ];
    for (const [name, sampling, path] of cases) {
      const outcome = await rejected((f) => void Object.assign(f.tables.agents[0]!, { sampling }));
      expect({ name, code: outcome.code, path: outcome.path, written: outcome.written }).toEqual({
        name,
        code: 'backup_invalid',
        path,
        written: false,
      });
    }
  });
});

describe('backup limits (issue 20)', () => {
  it('X161 (item 2): a message seq near 2^53 or 1e300 is refused with its path; nothing is written', async () => {
    for (const seq of [2 ** 53 - 1, 1e300, 1_000_000_001]) {
      const outcome = await rejected((f) => void (f.tables.messages[0]!.seq = seq));
      expect(outcome).toMatchObject({
        code: 'backup_invalid',
        path: 'tables.messages[0].seq',
        written: false,
      });
      expect(outcome.message).toContain('must be ≤ 1000000000');
    }
    const summary = await rejected((f) => void (f.tables.summaries[0]!.toSeq = 2 ** 53));
    expect(summary.path).toBe('tables.summaries[0].toSeq');
  });

  it('X162 (item 5): a step or turn of another agent than its turn or trigger message is refused', async () => {
    const step = await rejected((f) => {
      const s = f.tables.steps.find((x) => x.agentId === 'a')!;
      s.agentId = 'b';
    });
    expect(step).toMatchObject({ code: 'backup_invalid', written: false });
    expect(step.path).toMatch(/^tables\.steps\[\d+\]\.agentId$/);
    expect(step.message).toContain('belongs to agent "a"');
    const turn = await rejected((f) => {
      const t = f.tables.turns.find((x) => x.agentId === 'a')!;
      t.agentId = 'b';
      for (const s of f.tables.steps) if (s.turnId === t.id) s.agentId = 'b';
    });
    expect(turn.path).toMatch(/^tables\.turns\[\d+\]\.agentId$/);
    const vectors = await rejected((f) => {
      f.tables.vectors.find((v) => v.agentId === 'a')!.ids = ['b-m1', 'b-m2'];
    });
    expect(vectors.path).toMatch(/^tables\.vectors\[\d+\]\.ids\[0\]$/);
  });

  it('X163 (item 6): non-finite vectors, a huge block version, maxSteps 0 and a block over its charLimit are refused', async () => {
    const nan = btoa(String.fromCharCode(...new Uint8Array(Float32Array.from([NaN, 1]).buffer)));
    const inf = btoa(
      String.fromCharCode(...new Uint8Array(Float32Array.from([1, 2, Infinity]).buffer)),
    );
    const cases: Array<[string, (f: BackupFile) => void, RegExp]> = [
      ['NaN in message vectors', (f) => vectorsOf(f, nan), /^tables\.vectors\[0\]\.data$/],
      [
        'Infinity in a passage embedding',
        (f) => void (f.tables.passages.find((p) => p.embedding !== null)!.embedding = inf),
        /^tables\.passages\[\d+\]\.embedding$/,
      ],
      [
        'block version 2^53 − 1',
        (f) => void (f.tables.blocks[0]!.version = Number.MAX_SAFE_INTEGER),
        /^tables\.blocks\[0\]\.version$/,
      ],
      [
        'history version 2^53 − 1',
        (f) => void (f.tables.blockHistory[0]!.version = Number.MAX_SAFE_INTEGER),
        /^tables\.blockHistory\[0\]\.version$/,
      ],
      [
        'maxSteps 0',
        (f) => void (f.tables.agents[0]!.budgets.maxSteps = 0),
        /^tables\.agents\[0\]\.budgets\.maxSteps$/,
      ],
      [
        'a block longer than its charLimit',
        (f) => void (f.tables.blocks[0]!.charLimit = 3),
        /^tables\.blocks\[0\]\.value$/,
      ],
    ];
    for (const [name, change, path] of cases) {
      const outcome = await rejected(change);
      expect({ name, code: outcome.code, written: outcome.written }).toEqual({
        name,
        code: 'backup_invalid',
        written: false,
      });
      expect(outcome.path, name).toMatch(path);
    }
  });

  it('X163 (item 6): an encrypted backup with a 1-byte salt or a short iv is refused before any key is derived', async () => {
    const source = await populated();
    const envelope = JSON.parse(await exportBackup(source, { passphrase: 'pw' })) as {
      kdf: { salt: string };
      cipher: { iv: string };
    };
    const target = await fresh();
    const salted = { ...envelope, kdf: { ...envelope.kdf, salt: 'AA==' } };
    await expect(
      importBackup(target, JSON.stringify(salted), { passphrase: 'pw' }),
    ).rejects.toMatchObject({ code: 'backup_invalid', details: { path: 'kdf.salt' } });
    const short = { ...envelope, cipher: { ...envelope.cipher, iv: 'AAAA' } };
    await expect(importBackup(target, JSON.stringify(short))).rejects.toMatchObject({
      code: 'backup_invalid',
      details: { path: 'cipher.iv' },
    });
    expect(await target.listAgents()).toEqual([]);
  });

  it('X170 (item 4): a backup is written in parts of one record each, which join to the same JSON', async () => {
    const source = await populated();
    const big = 'x'.repeat(200_000);
    await source.apply({ messages: [sampleMessage('a', 'a-big', big, 2000)] });
    const text = await exportBackup(source, { now: () => 7 });
    const file = JSON.parse(text) as BackupFile;
    const parts = backupFileParts(file);
    expect(parts.join('')).toBe(JSON.stringify(file));
    const rows = Object.values(file.tables).reduce((n, t) => n + t.length, 0);
    expect(parts.length).toBeGreaterThan(rows);
    // No part holds more than one record: the largest is the big message, nothing beyond it.
    const longest = Math.max(...parts.map((p) => p.length));
    expect(longest).toBeLessThan(big.length + 1_000);
    const target = await fresh();
    await importBackup(target, parts.join(''));
    expect(await readBackupTables(target)).toEqual(await readBackupTables(source));
  });

  it('X171 (item 4): a large file is read as a stream, record by record, and imports back equal', async () => {
    const source = await populated();
    // Records longer than a stream chunk, full of what a scanner could trip on.
    const tricky = '{"a":[1,"\\"}]"]} \\\\ 汉字 \u2028 '.repeat(20_000);
    await source.apply({
      messages: [
        sampleMessage('a', 'a-big', tricky, 2000),
        sampleMessage('b', 'b-big', `"${tricky}"`, 2001),
      ],
    });
    const text = await exportBackup(source);
    expect(text.length).toBeGreaterThan(1_000_000);
    const target = await fresh();
    const summary = await importBackupFile(target, new Blob([text]), {}, 0);
    expect(summary.messages).toBe(8);
    expect(await readBackupTables(target)).toEqual(await readBackupTables(source));
    // Cut anywhere, the streamed file is refused and nothing is written.
    const other = await fresh();
    for (const cut of [10, Math.floor(text.length / 2), text.length - 1]) {
      await expect(
        importBackupFile(other, new Blob([text.slice(0, cut)]), {}, 0),
      ).rejects.toMatchObject({ code: 'backup_invalid' });
    }
    expect(await other.listAgents()).toEqual([]);
  });

  it('X171: a streamed file with one record that is not JSON names that record; nothing is written', async () => {
    const text = await exportBackup(await populated());
    const parsed = JSON.parse(text) as { tables: { messages: { id: string }[] } };
    const second = parsed.tables.messages[1]!;
    // Brackets still balance, so the scanner closes the record and its own parse refuses it.
    const broken = text.replace(`"id":"${second.id}"`, `"id":${second.id}`);
    expect(broken).not.toBe(text);
    const target = await fresh();
    await expect(importBackupFile(target, new Blob([broken]), {}, 0)).rejects.toMatchObject({
      code: 'backup_invalid',
      message: 'Invalid backup: tables.messages[1] is not JSON.',
      details: { path: 'tables.messages[1]' },
    });
    expect(await target.listAgents()).toEqual([]);
  });

  it('X164 (item 10): a backup of version 0.5 is invalid, not "made by a newer Loci"; version 3 is newer', async () => {
    const half = await rejected((f) => void (f.version = 0.5));
    expect(half).toMatchObject({ code: 'backup_invalid', path: 'version', written: false });
    const zero = await rejected((f) => void (f.version = 0));
    expect(zero).toMatchObject({ code: 'backup_invalid', path: 'version' });
    const newer = await rejected((f) => void (f.version = 3));
    expect(newer).toMatchObject({ code: 'backup_unsupported_version', path: 'version' });
  });
});

/** Puts `data` (base64 of 2 floats) as the first vector batch, for one id of its agent. */
function vectorsOf(f: BackupFile, data: string): void {
  const v = f.tables.vectors[0]!;
  v.dimension = 2;
  v.ids = v.ids.slice(0, 1);
  v.data = data;
}
