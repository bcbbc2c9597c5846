import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { dexieBackupActions } from '../adapters/backup/dexie-backup-actions';
import { exportBackup, readBackupTables } from '../adapters/backup/export-backup';
import { readBackupBlob } from '../adapters/backup/read-backup-blob';
import { BackupWorkerClient, RECEIVE_ROWS } from '../adapters/backup/worker-backup-reader';
import { openMemoryStore, type DexieMemoryStore } from '../adapters/storage/dexie';
import {
  sampleAgent,
  sampleBlock,
  sampleDocument,
  sampleMessage,
  samplePassage,
} from '../adapters/storage/dexie/sample-records';
import type { BackupFile } from '../core/backup/backup-format';
import { AppError } from '../core/errors';
import type { BackupImportProgress } from '../core/ports/backup';
import type { BackupApi } from '../rpc/backup-api';
import type { RpcEndpoint } from '../rpc/protocol';
import { RpcClient, type RpcConnection } from '../rpc/rpc-client';
import { serveRpc } from '../rpc/serve-rpc';
import { createBackupHandlers, type BackupWorkerOptions } from './backup-handlers';

const stores: DexieMemoryStore[] = [];
afterEach(() => stores.splice(0).forEach((s) => s.close()));
let dbs = 0;
async function fresh(): Promise<DexieMemoryStore> {
  dbs += 1;
  const store = await openMemoryStore(`backup-worker-test-${dbs}-${Date.now()}`);
  stores.push(store);
  return store;
}

/** Two agents with every kind of row; agent "a" has `messages` messages. */
async function populated(messages = 3): Promise<DexieMemoryStore> {
  const store = await fresh();
  for (const a of ['a', 'b']) {
    const doc = sampleDocument(a, `${a}-doc`);
    const count = a === 'a' ? messages : 3;
    await store.apply({
      agents: [sampleAgent(a)],
      blocks: [sampleBlock(a, 'human', 'Name: Ana'), sampleBlock(a, 'persona', 'kind')],
      messages: Array.from({ length: count }, (_, i) =>
        sampleMessage(a, `${a}-m${i}`, i % 2 ? 'ok' : '我的生日是五月', 1000 + i),
      ),
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
    });
    await store.putVectors(a, {
      kind: 'message',
      modelId: 'e5',
      dimension: 2,
      ids: [`${a}-m0`, `${a}-m1`],
      data: Float32Array.from([1, 2, 3, 4]),
    });
  }
  await store.setSetting('theme', { dark: true });
  return store;
}

/** The worker's handlers on one end of a MessageChannel, the page's client on the other. */
function overChannel(
  options: BackupWorkerOptions = {},
  handlers = createBackupHandlers(options),
): { worker: BackupWorkerClient; handlers: typeof handlers; calls: string[] } {
  const calls: string[] = [];
  const connect = (): RpcConnection => {
    const channel = new MessageChannel();
    channel.port2.addEventListener('message', (event: MessageEvent) => {
      const method = (event.data as { method?: unknown }).method;
      if (typeof method === 'string') calls.push(method);
    });
    const stop = serveRpc(channel.port2 as unknown as RpcEndpoint, handlers);
    return {
      endpoint: channel.port1 as unknown as RpcEndpoint,
      onCrash: () => {},
      terminate: () => {
        stop();
        channel.port1.close();
        channel.port2.close();
      },
    };
  };
  return { worker: new BackupWorkerClient(new RpcClient<BackupApi>(connect)), handlers, calls };
}

/** A worker that starts, then dies on its first `read` (as one out of memory would). */
function dyingWorker(): BackupWorkerClient {
  const handlers = createBackupHandlers();
  let crash: (reason: string) => void = () => {};
  const rpc = new RpcClient<BackupApi>(() => {
    const channel = new MessageChannel();
    const stop = serveRpc(channel.port2 as unknown as RpcEndpoint, {
      ...handlers,
      read: () => {
        queueMicrotask(() => crash('out of memory'));
        return new Promise<never>(() => {});
      },
    });
    return {
      endpoint: channel.port1 as unknown as RpcEndpoint,
      onCrash: (listener) => {
        crash = listener;
      },
      terminate: () => {
        stop();
        channel.port1.close();
      },
    };
  });
  return new BackupWorkerClient(rpc);
}

/** A worker whose script never runs: its first message is answered by a crash. */
function deadWorker(onUnavailable: (reason: string) => void): BackupWorkerClient {
  const rpc = new RpcClient<BackupApi>(() => {
    let crash: (reason: string) => void = () => {};
    return {
      endpoint: {
        postMessage: () => queueMicrotask(() => crash('the script was refused')),
        addEventListener: () => {},
        removeEventListener: () => {},
      },
      onCrash: (listener) => {
        crash = listener;
      },
      terminate: () => {},
    };
  });
  return new BackupWorkerClient(rpc, { onUnavailable });
}

const rejection = async (promise: Promise<unknown>): Promise<AppError> => {
  try {
    await promise;
  } catch (error) {
    return AppError.from(error);
  }
  throw new Error('expected a rejection');
};

const blobOf = (file: BackupFile | string): Blob =>
  new Blob([typeof file === 'string' ? file : JSON.stringify(file)], { type: 'application/json' });

describe('backup worker (X187)', () => {
  it('X195: a backup is read and written in the worker: it comes back equal, and no row reaches the page', async () => {
    const messages = RECEIVE_ROWS * 2 + 7;
    const source = await populated(messages);
    const text = await exportBackup(source);
    const target = await fresh();
    const { worker, handlers, calls } = overChannel();
    const seen: BackupImportProgress[] = [];
    const summary = await dexieBackupActions(target, worker).importFile(blobOf(text), {
      onProgress: (p) => seen.push(p),
    });
    expect(summary.messages).toBe(messages + 3);
    expect(await readBackupTables(target)).toEqual(await readBackupTables(source));
    expect(calls).toContain('write');
    expect(calls).not.toContain('slice');
    await expect.poll(() => handlers.heldCount()).toBe(0);
    // Progress came in order: checked, compared with this device, then messages written.
    const types = seen.map((p) => p.type);
    expect(types).not.toContain('receiving');
    expect(types.indexOf('checking')).toBeLessThan(types.indexOf('comparing'));
    expect(types.lastIndexOf('comparing')).toBeLessThan(types.indexOf('writing'));
    const writing = seen.filter((p) => p.type === 'writing');
    expect(writing.length).toBeGreaterThan(2);
    expect(writing.at(-1)).toEqual({
      type: 'writing',
      messages: messages + 3,
      totalMessages: messages + 3,
    });
  });

  it('X195: an id another agent holds on this device is refused by the worker with its path; nothing is written', async () => {
    const source = await populated();
    const text = await exportBackup(source, { agentId: 'a' });
    const target = await fresh();
    await target.apply({
      agents: [sampleAgent('z')],
      messages: [sampleMessage('z', 'a-m1', 'mine', 5)],
    });
    const before = await readBackupTables(target);
    const { worker, calls } = overChannel();
    const error = await rejection(dexieBackupActions(target, worker).importFile(blobOf(text), {}));
    expect(calls).toContain('write');
    expect(error.code).toBe('backup_invalid');
    expect(error.message).toContain('already used by agent "z"');
    expect((error.details as { path?: string }).path).toBe('tables.messages[1].id');
    expect(await readBackupTables(target)).toEqual(before);
  });

  it('X187 X195: where the worker cannot open the database, the rows come to the page in slices and are written there', async () => {
    const messages = RECEIVE_ROWS * 2 + 7;
    const source = await populated(messages);
    const text = await exportBackup(source);
    const target = await fresh();
    const { worker, handlers, calls } = overChannel({
      openStore: async () => {
        throw new AppError('storage_unavailable', 'no IndexedDB in this worker');
      },
    });
    const seen: BackupImportProgress[] = [];
    const summary = await dexieBackupActions(target, worker).importFile(blobOf(text), {
      onProgress: (p) => seen.push(p),
    });
    expect(summary.messages).toBe(messages + 3);
    expect(await readBackupTables(target)).toEqual(await readBackupTables(source));
    // The messages came over in slices of at most RECEIVE_ROWS, and the worker let go of them.
    expect(calls.filter((c) => c === 'slice').length).toBeGreaterThanOrEqual(
      Math.ceil((messages + 3) / RECEIVE_ROWS),
    );
    expect(calls).toContain('release');
    await expect.poll(() => handlers.heldCount()).toBe(0);
    const types = seen.map((p) => p.type);
    expect(types.indexOf('checking')).toBeLessThan(types.indexOf('receiving'));
    expect(types.lastIndexOf('receiving')).toBeLessThan(types.indexOf('comparing'));
    expect(types.lastIndexOf('comparing')).toBeLessThan(types.indexOf('writing'));
  });

  it('X196: cancelling while the worker writes rolls the import back: cancelled, and nothing is written', async () => {
    const source = await populated(RECEIVE_ROWS * 3);
    const text = await exportBackup(source);
    const target = await fresh();
    await target.apply({
      agents: [sampleAgent('z')],
      messages: [sampleMessage('z', 'z1', 'mine', 5)],
    });
    const before = await readBackupTables(target);
    const { worker, handlers, calls } = overChannel();
    const controller = new AbortController();
    const seen: BackupImportProgress[] = [];
    const error = await rejection(
      dexieBackupActions(target, worker).importFile(blobOf(text), {
        signal: controller.signal,
        onProgress: (p) => {
          seen.push(p);
          if (p.type === 'writing' && p.messages > 0) controller.abort();
        },
      }),
    );
    expect(error.code).toBe('cancelled');
    expect(calls).toContain('cancel');
    // Messages had been written inside the transaction before the cancel; none of them stayed.
    expect(seen.some((p) => p.type === 'writing' && p.messages > 0)).toBe(true);
    expect(await readBackupTables(target)).toEqual(before);
    await expect.poll(() => handlers.heldCount()).toBe(0);
  });

  it('X196: cancelling while the file is read, or on the page writer, writes nothing', async () => {
    const source = await populated(RECEIVE_ROWS + 5);
    const text = await exportBackup(source);
    const target = await fresh();
    const before = await readBackupTables(target);
    const reading = new AbortController();
    const { worker } = overChannel();
    const whileReading = await rejection(
      dexieBackupActions(target, worker).importFile(blobOf(text), {
        signal: reading.signal,
        onProgress: (p) => {
          if (p.type === 'checking') reading.abort();
        },
      }),
    );
    expect(whileReading.code).toBe('cancelled');
    // The page writes where the worker cannot open the database: the same cancel, the same result.
    const { worker: noDatabase } = overChannel({
      openStore: async () => {
        throw new AppError('storage_unavailable', 'no IndexedDB in this worker');
      },
    });
    const writing = new AbortController();
    const onPage = await rejection(
      dexieBackupActions(target, noDatabase).importFile(blobOf(text), {
        signal: writing.signal,
        onProgress: (p) => {
          if (p.type === 'writing' && p.messages > 0) writing.abort();
        },
      }),
    );
    expect(onPage.code).toBe('cancelled');
    expect(await readBackupTables(target)).toEqual(before);
  });

  it('X187: a large file goes through the stream reader in the worker, with read progress', async () => {
    const source = await populated();
    const text = await exportBackup(source);
    const target = await fresh();
    const { worker } = overChannel({ streamAbove: 0 });
    const seen: BackupImportProgress[] = [];
    const file = blobOf(text);
    await dexieBackupActions(target, worker).importFile(file, {
      onProgress: (p) => seen.push(p),
    });
    expect(await readBackupTables(target)).toEqual(await readBackupTables(source));
    const reads = seen.filter((p) => p.type === 'reading');
    expect(reads.at(-1)).toMatchObject({ loadedBytes: file.size, totalBytes: file.size });
  });

  const hostile: Array<[string, (f: BackupFile) => void]> = [
    ['a duplicate message id', (f) => void f.tables.messages.push({ ...f.tables.messages[0]! })],
    ['an unknown agent', (f) => void (f.tables.messages[1]!.agentId = 'ghost')],
    ['a seq of 1e300', (f) => void (f.tables.messages[0]!.seq = 1e300)],
    ['a newer version', (f) => void (f.version = 3)],
    // (A vector of a message simply missing is left out with a note since S41.)
    ["a vector of another agent's message", (f) => void (f.tables.vectors[0]!.ids[0] = 'b-m0')],
    [
      'a __proto__ key',
      (f) =>
        void Object.defineProperty(f.tables.settings[0]!.value as object, '__proto__', {
          value: { polluted: 1 },
          enumerable: true,
        }),
    ],
  ];

  for (const [name, mutate] of hostile) {
    it(`X187: ${name} is refused by the worker exactly as on the page, and nothing is written`, async () => {
      const source = await populated();
      const file = JSON.parse(await exportBackup(source)) as BackupFile;
      mutate(file);
      const onPage = await rejection(readBackupBlob(blobOf(file)));
      for (const streamAbove of [undefined, 0]) {
        const target = await fresh();
        const { worker } = overChannel(streamAbove === undefined ? {} : { streamAbove });
        const inWorker = await rejection(
          dexieBackupActions(target, worker).importFile(blobOf(file), {}),
        );
        if (streamAbove === undefined) {
          expect(inWorker.toWire()).toEqual(onPage.toWire());
        } else {
          expect(inWorker.code).toBe(onPage.code);
          expect(inWorker.details).toEqual(onPage.details);
        }
        expect(await target.listAgents()).toEqual([]);
      }
    });
  }

  it('S41: through the worker, a file whose vector names a deleted message imports, and the summary counts what was left out', async () => {
    const source = await populated();
    const file = JSON.parse(await exportBackup(source)) as BackupFile;
    // What earlier versions wrote after deleting a-m0: the message gone, its vector kept.
    file.tables.messages = file.tables.messages.filter((m) => m.id !== 'a-m0');
    const target = await fresh();
    const { worker } = overChannel();
    const summary = (await dexieBackupActions(target, worker).importFile(blobOf(file), {})) as {
      leftOut?: number;
    };
    expect(summary.leftOut).toBe(1);
    expect((await target.loadVectors('a'))[0]?.ids).toEqual(['a-m1']);
  });

  it('X187: text that is not JSON, or cut short, is refused with backup_invalid', async () => {
    const text = await exportBackup(await populated());
    const { worker } = overChannel();
    const target = await fresh();
    const actions = dexieBackupActions(target, worker);
    for (const bad of ['{"format": ', text.slice(0, text.length - 1), '']) {
      expect((await rejection(actions.importFile(blobOf(bad), {}))).code).toBe('backup_invalid');
    }
    expect(await target.listAgents()).toEqual([]);
  });

  it('X187: an encrypted backup is decrypted in the worker; a wrong passphrase writes nothing', async () => {
    const source = await populated();
    const text = await exportBackup(source, { passphrase: 'correct horse' });
    const { worker } = overChannel();
    const target = await fresh();
    const actions = dexieBackupActions(target, worker);
    for (const passphrase of ['wrong', undefined]) {
      const error = await rejection(
        actions.importFile(blobOf(text), passphrase === undefined ? {} : { passphrase }),
      );
      expect(error.code).toBe('backup_wrong_passphrase');
    }
    expect(await target.listAgents()).toEqual([]);
    await actions.importFile(blobOf(text), { passphrase: 'correct horse' });
    expect(await readBackupTables(target)).toEqual(await readBackupTables(source));
  });

  it('X187: a slice of big rows stops at its character budget but always holds one row', async () => {
    const source = await fresh();
    await source.apply({
      agents: [sampleAgent('a')],
      messages: Array.from({ length: 5 }, (_, i) =>
        sampleMessage('a', `m${i}`, 'x'.repeat(1_000), 1000 + i),
      ),
    });
    const { worker } = overChannel();
    const { rpc } = worker;
    const held = await rpc.call('read', { file: blobOf(await exportBackup(source)) });
    expect(held.counts.messages).toBe(5);
    const args = { handle: held.handle, table: 'messages' as const, maxRows: 100 };
    expect(await rpc.call('slice', { ...args, from: 0, maxChars: 1 })).toHaveLength(1);
    expect(await rpc.call('slice', { ...args, from: 0, maxChars: 2_500 })).toHaveLength(3);
    expect(await rpc.call('slice', { ...args, from: 3, maxChars: 1e9 })).toHaveLength(2);
    expect(await rpc.call('slice', { ...args, from: 5, maxChars: 1e9 })).toEqual([]);
    const bad = await rejection(rpc.call('slice', { ...args, from: -1, maxChars: 10 }));
    expect(bad.code).toBe('invalid_argument');
    const table = await rejection(
      rpc.call('slice', { ...args, table: 'secrets' as 'messages', from: 0, maxChars: 10 }),
    );
    expect(table.code).toBe('invalid_argument');
    await rpc.call('release', { handle: held.handle });
    const gone = await rejection(rpc.call('slice', { ...args, from: 0, maxChars: 10 }));
    expect(gone.code).toBe('not_found');
    const noFile = await rejection(rpc.call('read', { file: 'a path' as unknown as Blob }));
    expect(noFile.code).toBe('invalid_argument');
  });

  it('X187: a worker that dies while reading fails the import with worker_crashed; nothing is written', async () => {
    const text = await exportBackup(await populated());
    const target = await fresh();
    const error = await rejection(
      dexieBackupActions(target, dyingWorker()).importFile(blobOf(text), {}),
    );
    expect(error.code).toBe('worker_crashed');
    expect(await target.listAgents()).toEqual([]);
  });

  it('X187: where the worker cannot start, the file is read on the page and imported as before', async () => {
    const source = await populated();
    const text = await exportBackup(source);
    const reasons: string[] = [];
    const worker = deadWorker((reason) => reasons.push(reason));
    const target = await fresh();
    await dexieBackupActions(target, worker).importFile(blobOf(text), {});
    expect(await readBackupTables(target)).toEqual(await readBackupTables(source));
    expect(reasons).toHaveLength(1);
    // Told once: the next import goes straight to the page.
    await dexieBackupActions(target, worker).importFile(blobOf(text), {});
    expect(reasons).toHaveLength(1);
  });

  it('X243: an export is made in the worker and reaches the page as a Blob of the same file', async () => {
    const source = await populated(RECEIVE_ROWS + 3);
    const { worker, calls } = overChannel();
    const actions = dexieBackupActions(source, worker);
    for (const agentId of [undefined, 'b']) {
      const blob = await actions.exportFile(agentId ? { agentId } : {});
      const file = JSON.parse(await blob.text()) as BackupFile;
      const expected = JSON.parse(
        await exportBackup(source, agentId ? { agentId } : {}),
      ) as BackupFile;
      expect({ ...file, exportedAt: 0 }).toEqual({ ...expected, exportedAt: 0 });
    }
    expect(calls.filter((c) => c === 'export')).toHaveLength(2);
    const missing = await rejection(actions.exportFile({ agentId: 'nobody' }));
    expect(missing.code).toBe('not_found');
  });

  it('X243: where the worker cannot open the database, the page makes the same export', async () => {
    const source = await populated();
    const { worker } = overChannel({
      openStore: () => Promise.reject(new Error('no IndexedDB in this worker')),
    });
    const blob = await dexieBackupActions(source, worker).exportFile({});
    const file = JSON.parse(await blob.text()) as BackupFile;
    expect(file.tables).toEqual((JSON.parse(await exportBackup(source)) as BackupFile).tables);
  });

  it('X242: a worker that dies during an export fails it with worker_crashed; the next export works', async () => {
    const source = await populated();
    const handlers = createBackupHandlers();
    let crash: (reason: string) => void = () => {};
    let exports = 0;
    const rpc = new RpcClient<BackupApi>(() => {
      const channel = new MessageChannel();
      const stop = serveRpc(channel.port2 as unknown as RpcEndpoint, {
        ...handlers,
        export: (args) => {
          exports += 1;
          if (exports > 1) return handlers.export(args);
          queueMicrotask(() => crash('it went away'));
          return new Promise<never>(() => {});
        },
      });
      return {
        endpoint: channel.port1 as unknown as RpcEndpoint,
        onCrash: (listener) => {
          crash = listener;
        },
        terminate: () => {
          stop();
          channel.port1.close();
        },
      };
    });
    const actions = dexieBackupActions(source, new BackupWorkerClient(rpc));
    const error = await rejection(actions.exportFile({}));
    expect(error.code).toBe('worker_crashed');
    const blob = await actions.exportFile({});
    expect((JSON.parse(await blob.text()) as BackupFile).tables.messages).toHaveLength(6);
  });
});
