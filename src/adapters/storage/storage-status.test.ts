import { describe, expect, it } from 'vitest';
import { browserStorageStatus, requestPersistence } from './storage-status';

describe('storage status', () => {
  it('S12: asks for persistence and says when the browser cannot', async () => {
    expect(await requestPersistence({ persist: async () => false })).toBe('best_effort');
    expect(await requestPersistence({ persist: async () => true })).toBe('persisted');
    expect(await requestPersistence(undefined)).toBe('unknown');
    expect(await requestPersistence({ persist: () => Promise.reject(new Error('no')) })).toBe(
      'unknown',
    );
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
    const failing = browserStorageStatus({
      estimate: () => Promise.reject(new Error('nope')),
      persisted: async () => false,
    });
    expect(await failing.report()).toEqual({ usage: null, quota: null, persisted: false });
  });
});
