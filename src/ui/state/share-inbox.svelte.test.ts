import { describe, expect, it } from 'vitest';
import { SHARE_INBOX_CACHE, ShareInbox } from './share-inbox';
import type { ImportFile } from './documents.svelte';
import { ShareInboxState, type ShareImporter } from './share-inbox.svelte';

function memoryCaches() {
  const map = new Map<string, Response>();
  const cache = {
    match: async (key: string) => map.get(key)?.clone(),
    put: async (key: string, response: Response) => void map.set(key, response),
    delete: async (key: string | Request) => map.delete(typeof key === 'string' ? key : key.url),
    keys: async () => [...map.keys()].map((k) => new Request(k)),
  };
  return {
    map,
    storage: {
      has: async (name: string) => name === SHARE_INBOX_CACHE,
      open: async () => cache,
    } as unknown as CacheStorage,
  };
}

const base = 'http://127.0.0.1/';
const NOW = 1_790_000_000_000;

function setup() {
  const { storage, map } = memoryCaches();
  const calls: { kind: string; agentId: string; what: string }[] = [];
  const importer: ShareImporter = {
    importText: (agentId, text, title) => (
      calls.push({ kind: 'text', agentId, what: `${title}: ${text}` }),
      ['j1']
    ),
    importFiles: (agentId, files: readonly ImportFile[]) => (
      calls.push({ kind: 'files', agentId, what: files.map((f) => f.name).join(',') }),
      files.map((_, i) => `f${i}`)
    ),
  };
  const state = new ShareInboxState({
    inbox: new ShareInbox(storage, base),
    importer,
    clock: { now: () => NOW },
  });
  return { state, calls, map };
}

describe('ShareInboxState', () => {
  it('U200: a link share waits; nothing is imported until the user adds it to the agent they pick', async () => {
    const { state, calls, map } = setup();
    await state.receive({
      text: { title: 'Trail', text: 'Walk at dawn', url: 'https://a.example' },
      inboxId: null,
      refused: null,
      refusedFrom: null,
    });
    expect(state.items.map((i) => i.title)).toEqual(['Trail']);
    expect(state.focus).toBe(state.items[0]!.id);
    expect(calls).toEqual([]);
    const jobs = await state.add(state.items[0]!.id, 'agent_b');
    expect(jobs).toEqual(['j1']);
    expect(calls).toEqual([
      { kind: 'text', agentId: 'agent_b', what: 'Trail: Walk at dawn\n\nhttps://a.example' },
    ]);
    expect(state.items).toEqual([]);
    expect(map.size).toBe(0);
    // A second click (or another tab) finds nothing and imports nothing twice.
    expect(await state.add('gone-1', 'agent_b')).toEqual([]);
    expect(calls.length).toBe(1);
  });

  it('U204: dismiss keeps nothing; a refusal is a notice, not an item', async () => {
    const { state, calls, map } = setup();
    await state.receive({
      text: { title: '', text: 'x', url: '' },
      inboxId: null,
      refused: null,
      refusedFrom: null,
    });
    await state.dismiss(state.items[0]!.id);
    expect(map.size).toBe(0);
    await state.receive({
      text: null,
      inboxId: null,
      refused: 'cross_site',
      refusedFrom: 'http://127.0.0.1:5450',
    });
    expect(state.items).toEqual([]);
    expect(state.notice).toEqual({ refused: 'cross_site', from: 'http://127.0.0.1:5450' });
    expect(calls).toEqual([]);
  });
});
