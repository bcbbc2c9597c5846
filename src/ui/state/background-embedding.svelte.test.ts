import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors';
import type { ReembedOptions, ReembedResult } from '../../core/search/memory-search';
import { MemoryTurnLock } from '../../testing/memory-turn-lock';
import { errorCopy } from '../error-copy';
import { BackgroundEmbedding } from './background-embedding.svelte';

/** A search with `missing` rows to catch up on, embedded two per batch. */
function fakeSearch(missing: number, fail = false) {
  const search = {
    agentId: 'a1' as string | null,
    unembedded: missing,
    calls: 0,
    fail,
    async reembed(options: ReembedOptions = {}): Promise<ReembedResult> {
      search.calls += 1;
      if (search.fail)
        throw new AppError('embedder_failed', 'The embedding model could not be loaded.');
      const total = search.unembedded;
      options.onProgress?.(0, total);
      let done = 0;
      while (done < total) {
        await Promise.resolve();
        if (options.signal?.aborted) return { passages: 0, messages: done, complete: false };
        done = Math.min(total, done + 2);
        search.unembedded = total - done;
        options.onProgress?.(done, total);
      }
      return { passages: 0, messages: total, complete: true };
    },
  };
  return search;
}

describe('BackgroundEmbedding', () => {
  it('U80: catches up with progress, once; nothing missing means nothing runs', async () => {
    const search = fakeSearch(5);
    const embedding = new BackgroundEmbedding({ search, lock: new MemoryTurnLock(), model: 'bge' });
    const seen: number[] = [];
    const run = embedding.run('a1');
    // Progress is visible while it runs.
    await Promise.resolve();
    await Promise.resolve();
    seen.push(embedding.done);
    expect(embedding.running).toBe(true);
    await run;
    expect(embedding.running).toBe(false);
    expect(embedding.done).toBe(5);
    expect(embedding.total).toBe(5);
    expect(embedding.finished).toEqual({ passages: 0, messages: 5, complete: true });
    expect(seen[0]).toBeLessThan(5);
    await embedding.run('a1');
    expect(search.calls).toBe(1);
  });

  it('U80: another tab that holds the catch-up lock does it; this one does not start', async () => {
    const search = fakeSearch(4);
    const lock = new MemoryTurnLock();
    const release = await lock.acquire('reembed:a1');
    const embedding = new BackgroundEmbedding({ search, lock, model: null });
    await embedding.run('a1');
    expect(search.calls).toBe(0);
    expect(embedding.running).toBe(false);
    await release?.();
    await embedding.run('a1');
    expect(search.calls).toBe(1);
  });

  it('U80: a failure says so and frees the lock; pause stops mid-way without "finished"', async () => {
    const lock = new MemoryTurnLock();
    const failing = new BackgroundEmbedding({ search: fakeSearch(3, true), lock, model: 'bge' });
    await failing.run('a1');
    expect(failing.error).toBe(errorCopy('embedder_failed').what);
    expect(failing.running).toBe(false);
    expect(await lock.holder('reembed:a1')).toBeNull();

    const search = fakeSearch(10);
    const paused = new BackgroundEmbedding({ search, lock, model: 'bge' });
    const run = paused.run('a1');
    await Promise.resolve();
    paused.stop();
    await run;
    expect(paused.finished).toBeNull();
    expect(search.unembedded).toBeGreaterThan(0);
    expect(paused.paused).toBe(search.unembedded);
    // Resume carries on to the end.
    await paused.resume();
    expect(paused.paused).toBeNull();
    expect(search.unembedded).toBe(0);
    expect(paused.finished?.complete).toBe(true);
  });

  it('U217: after a failed download, "Try again" runs the catch-up again in this session', async () => {
    const search = fakeSearch(4, true);
    const embedding = new BackgroundEmbedding({ search, lock: new MemoryTurnLock(), model: 'bge' });
    await embedding.run('a1');
    // In plain words, not the library's message.
    expect(embedding.error).toBe(
      'The embedding model failed, so search by meaning is off for now.',
    );
    // Back online: the next try loads the model and embeds what was missing, no restart needed.
    search.fail = false;
    await embedding.resume();
    expect(search.calls).toBe(2);
    expect(embedding.error).toBeNull();
    expect(embedding.finished).toEqual({ passages: 0, messages: 4, complete: true });
    expect(search.unembedded).toBe(0);
  });

  it('U218: a model switch halts the run, forgets its report, and the next run names the new model', async () => {
    const search = fakeSearch(40);
    const embedding = new BackgroundEmbedding({ search, lock: new MemoryTurnLock(), model: null });
    expect(embedding.model).toBeNull();
    void embedding.run('a1');
    await Promise.resolve();
    await embedding.halt();
    expect(embedding.running).toBe(false);
    expect(embedding.paused).toBeNull();
    expect(search.unembedded).toBeGreaterThan(0);

    embedding.useModel('Loci fixture');
    await embedding.run('a1');
    expect(embedding.model).toBe('Loci fixture');
    expect(embedding.finished).not.toBeNull();
    expect(search.unembedded).toBe(0);
  });
});
