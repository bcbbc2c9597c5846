import { describe, expect, it, vi } from 'vitest';
import type { ModelCache } from './model-manager';
import { tolerantCache } from './tolerant-cache';

describe('tolerantCache', () => {
  it('a failing status check reads as "not cached" and 0 bytes; a failing delete still fails', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const broken: ModelCache = {
      has: () => Promise.reject(new Error('unknown model')),
      bytes: () => Promise.reject(new Error('Cache Storage unavailable')),
      remove: () => Promise.reject(new Error('quota')),
    };
    const cache = tolerantCache(broken);
    await expect(cache.has('m')).resolves.toBe(false);
    await expect(cache.bytes('m')).resolves.toBe(0);
    await expect(cache.remove('m')).rejects.toThrow('quota');
    expect(warn).toHaveBeenCalledTimes(2);
    warn.mockRestore();
  });

  it('a working cache answers as it is', async () => {
    const cache = tolerantCache({
      has: () => Promise.resolve(true),
      bytes: () => Promise.resolve(42),
      remove: () => Promise.resolve(),
    });
    await expect(cache.has('m')).resolves.toBe(true);
    await expect(cache.bytes('m')).resolves.toBe(42);
  });
});
