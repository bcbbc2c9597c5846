import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { openMemoryStore } from '../../adapters/storage/dexie';
import { createAgentRecord } from '../../core/agent/create-agent-record';
import { MemoryTurnLock } from '../../testing/memory-turn-lock';
import { ChatSession } from './chat-session.svelte';

describe('ChatSession, long histories', () => {
  it('U15: the chat shows the newest messages first and "show earlier" pages the older ones in', async () => {
    const store = await openMemoryStore(`chat-older-${Date.now()}`);
    const { changes } = createAgentRecord({ id: 'a1', name: 'Ada', now: 1 });
    await store.apply(changes);
    const message = (i: number) => ({
      id: `m${i}`,
      agentId: 'a1',
      role: 'user' as const,
      text: `message ${i}`,
      at: 10 + i,
      inContext: true,
      tokens: 3,
    });
    await store.apply({ messages: [1, 2, 3, 4, 5].map(message) });
    const session = new ChatSession({
      store,
      search: { removeMessages: () => Promise.resolve(), indexMessages: () => Promise.resolve() },
      lock: new MemoryTurnLock(),
      modelReady: () => true,
      run: () => Promise.reject(new Error('no turn runs in this test')),
      windowSize: 2,
    });
    await session.open('a1');
    const texts = () => session.messages.map((m) => m.text);
    await vi.waitFor(() => expect(texts()).toEqual(['message 4', 'message 5']));
    expect(session.olderCount).toBe(3);

    await session.showOlder();
    expect(texts()).toEqual(['message 2', 'message 3', 'message 4', 'message 5']);
    expect(session.olderCount).toBe(1);

    // The longer list is still live: a new message arrives at the end, the count of older ones stays.
    await store.apply({ messages: [message(6)] });
    await vi.waitFor(() => expect(texts().at(-1)).toBe('message 6'));
    expect(texts()).toHaveLength(4);
    expect(session.olderCount).toBe(2);

    await session.showOlder();
    expect(texts()).toHaveLength(6);
    expect(session.olderCount).toBe(0);
    // Nothing older: a further call changes nothing.
    await session.showOlder();
    expect(texts()).toHaveLength(6);

    // Opening the agent again starts from the newest page.
    await session.open(null);
    await session.open('a1');
    await vi.waitFor(() => expect(texts()).toEqual(['message 5', 'message 6']));
    expect(session.olderCount).toBe(4);
    session.close();
    store.close();
  });
});
