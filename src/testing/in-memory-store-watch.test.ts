import { describe, expect, it, vi } from 'vitest';
import { createAgentRecord } from '../core/agent/create-agent-record';
import { InMemoryStore } from './in-memory-store';

describe('InMemoryStore.watch (the LiveQueries port, as the Dexie store keeps it)', () => {
  it('gives the result, again after each write, and nothing after unsubscribe', async () => {
    const store = new InMemoryStore();
    const seen: string[][] = [];
    const subscription = store.watch(async () => (await store.listAgents()).map((a) => a.name), {
      next: (names) => seen.push(names),
      error: (e) => seen.push([String(e)]),
    });
    await vi.waitFor(() => expect(seen).toEqual([[]]));
    await store.apply(createAgentRecord({ id: 'a1', name: 'Ada', now: 1 }).changes);
    await vi.waitFor(() => expect(seen.at(-1)).toEqual(['Ada']));
    subscription.unsubscribe();
    await store.apply(createAgentRecord({ id: 'a2', name: 'Bo', now: 2 }).changes);
    await new Promise((r) => setTimeout(r, 10));
    expect(seen.at(-1)).toEqual(['Ada']);
  });
});
