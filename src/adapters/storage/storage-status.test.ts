import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openMemoryStore } from './dexie';
import { sampleAgent, sampleMessage } from './dexie/sample-records';
import { browserStorageStatus, requestPersistence, storageStatus } from './storage-status';

describe('storage status', () => {
  it('S12: reports usage, quota, persistence and per-tier rows', async () => {
    const store = await openMemoryStore(`status-${Date.now()}`);
    await store.apply({
      agents: [sampleAgent('a')],
      messages: [sampleMessage('a', 'm', 'hello', 1)],
    });
    const status = await storageStatus(store, undefined, {
      estimate: async () => ({ usage: 1234, quota: 10_000 }),
      persisted: async () => true,
    });
    expect(status).toMatchObject({ usageBytes: 1234, quotaBytes: 10_000, persist: 'persisted' });
    expect(status.tiers.messages.rows).toBe(1);
    expect(await requestPersistence({ persist: async () => false })).toBe('best_effort');
    store.close();
  });

  it('S12: without navigator.storage everything browser-side is unknown, tiers still count', async () => {
    const store = await openMemoryStore(`status-none-${Date.now()}`);
    const status = await storageStatus(store, undefined, undefined);
    expect(status).toMatchObject({ usageBytes: null, quotaBytes: null, persist: 'unknown' });
    expect(status.tiers.agents.rows).toBe(0);
    expect(await requestPersistence(undefined)).toBe('unknown');
    const failing = await storageStatus(store, undefined, {
      estimate: () => Promise.reject(new Error('nope')),
      persisted: () => Promise.reject(new Error('nope')),
    });
    expect(failing.persist).toBe('unknown');
    store.close();
  });
});

describe('browserStorageStatus', () => {
  it('S12: reports and asks through one manager; a part that rejects is unknown', async () => {
    const status = browserStorageStatus({
      estimate: async () => ({ usage: 5, quota: 50 }),
      persisted: () => Promise.reject(new Error('blocked')),
      persist: async () => true,
    });
    expect(await status.report()).toEqual({ usage: 5, quota: 50, persisted: null });
    expect(await status.persist()).toBe('persisted');
    expect(await browserStorageStatus(undefined).report()).toEqual({
      usage: null,
      quota: null,
      persisted: null,
    });
  });
});
