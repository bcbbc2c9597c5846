import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openMemoryStore } from './dexie';
import { sampleAgent, sampleMessage } from './dexie/sample-records';
import { requestPersistence, storageStatus } from './storage-status';

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
