import { describe, expect, it, vi } from 'vitest';
import { LazyModule } from './lazy-module.svelte';

describe('LazyModule (P34)', () => {
  it('P34: imports once; later loads and `current` give the same export without importing again', async () => {
    const screen = { name: 'Models' };
    const importer = vi.fn(() => Promise.resolve({ default: screen }));
    const lazy = new LazyModule(importer);
    expect(lazy.current).toBeNull();
    const [a, b] = await Promise.all([lazy.load(), lazy.load()]);
    expect(a).toBe(screen);
    expect(b).toBe(screen);
    expect(lazy.current).toBe(screen);
    expect(await lazy.load()).toBe(screen);
    expect(importer).toHaveBeenCalledTimes(1);
  });

  it('P34: a failed import is kept in `error`, and the next load tries again', async () => {
    const screen = { name: 'Settings' };
    const failure = new TypeError('Failed to fetch dynamically imported module');
    const importer = vi
      .fn<() => Promise<{ default: typeof screen }>>()
      .mockRejectedValueOnce(failure)
      .mockResolvedValueOnce({ default: screen });
    const lazy = new LazyModule(importer);
    await expect(lazy.load()).rejects.toBe(failure);
    expect(lazy.error).toBe(failure);
    expect(lazy.current).toBeNull();
    expect(await lazy.load()).toBe(screen);
    expect(lazy.error).toBeNull();
    expect(lazy.current).toBe(screen);
    expect(importer).toHaveBeenCalledTimes(2);
  });
});
