import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { openMemoryStore } from '../../adapters/storage/dexie';
import { createAgentRecord } from '../../core/agent/create-agent-record';
import type { TurnOutcome } from '../../core/agent/turn-events';
import { MemoryTurnLock } from '../../testing/memory-turn-lock';
import { ChatSession, type TurnRunner } from './chat-session.svelte';

describe('ChatSession, one conversation at a time (U190)', () => {
  it('shows only the selected conversation, counts its older messages, and runs turns in it', async () => {
    const store = await openMemoryStore(`chat-conversations-${Date.now()}`);
    await store.apply(createAgentRecord({ id: 'a1', name: 'Ada', now: 1 }).changes);
    const now = 5;
    await store.apply({
      conversations: [
        { id: 'a1:trip', agentId: 'a1', title: 'Trip', createdAt: now, updatedAt: now },
        { id: 'a1:garden', agentId: 'a1', title: 'Garden', createdAt: now, updatedAt: now },
      ],
    });
    // Interleaved seqs: trip 1, garden 2, trip 3, garden 4, trip 5, garden 6.
    const message = (i: number) => ({
      id: `m${i}`,
      agentId: 'a1',
      conversationId: i % 2 === 1 ? 'a1:trip' : 'a1:garden',
      role: 'user' as const,
      text: `${i % 2 === 1 ? 'trip' : 'garden'} ${i}`,
      at: 10 + i,
      inContext: true,
      tokens: 3,
    });
    await store.apply({ messages: [1, 2, 3, 4, 5, 6].map(message) });
    const calls: Parameters<TurnRunner>[2][] = [];
    const session = new ChatSession({
      store,
      search: { removeMessages: () => Promise.resolve(), indexMessages: () => Promise.resolve() },
      lock: new MemoryTurnLock(),
      modelReady: () => true,
      run: (_agentId, _trigger, options) => {
        calls.push(options);
        return Promise.resolve<TurnOutcome>({
          turnId: 't1',
          stopReason: 'end_turn',
          steps: 1,
          replies: [],
        });
      },
      windowSize: 2,
    });
    const texts = () => session.messages.map((m) => m.text);

    await session.open('a1', 'a1:trip');
    await vi.waitFor(() => expect(texts()).toEqual(['trip 3', 'trip 5']));
    // One older message of this conversation (trip 1), not the four seqs before #3.
    await vi.waitFor(() => expect(session.olderCount).toBe(1));

    await session.open('a1', 'a1:garden');
    expect(session.conversationId).toBe('a1:garden');
    await vi.waitFor(() => expect(texts()).toEqual(['garden 4', 'garden 6']));
    expect(texts().some((t) => t.startsWith('trip'))).toBe(false);

    await session.send('hello garden');
    expect(calls[0]?.conversationId).toBe('a1:garden');

    // A turn cut off in "trip" is offered for retry there, not in "garden".
    await store.apply({
      turns: [
        {
          id: 'tx',
          agentId: 'a1',
          triggerMessageId: 'm5',
          status: 'interrupted',
          steps: 0,
          startedAt: 20,
        },
      ],
    });
    await vi.waitFor(() => expect(Object.keys(session.turns)).toContain('tx'));
    expect(session.interrupted).toEqual([]);
    await session.open('a1', 'a1:trip');
    await vi.waitFor(() => expect(session.interrupted.map((t) => t.id)).toEqual(['tx']));
  });

  it("U327: Show in chat opens the hit's conversation, widens the window to reach it, and asks the view to focus it", async () => {
    const store = await openMemoryStore(`chat-show-message-${Date.now()}`);
    await store.apply(createAgentRecord({ id: 'a1', name: 'Ada', now: 1 }).changes);
    await store.apply({
      conversations: [
        { id: 'a1:trip', agentId: 'a1', title: 'Trip', createdAt: 5, updatedAt: 5 },
        { id: 'a1:garden', agentId: 'a1', title: 'Garden', createdAt: 5, updatedAt: 5 },
      ],
    });
    const message = (i: number) => ({
      id: `m${i}`,
      agentId: 'a1',
      conversationId: i <= 7 ? 'a1:trip' : 'a1:garden',
      role: 'user' as const,
      text: `message ${i}`,
      at: 10 + i,
      inContext: true,
      tokens: 3,
    });
    const { messages } = await store.apply({ messages: [1, 2, 3, 4, 5, 6, 7, 8].map(message) });
    const session = new ChatSession({
      store,
      search: { removeMessages: () => Promise.resolve(), indexMessages: () => Promise.resolve() },
      lock: new MemoryTurnLock(),
      modelReady: () => true,
      run: () => Promise.reject(new Error('no turn runs here')),
      windowSize: 2,
    });
    await session.open('a1', 'a1:garden');
    const ids = () => session.messages.map((m) => m.id);
    await vi.waitFor(() => expect(ids()).toEqual(['m8']));

    // The second message of "trip": five newer ones in its conversation, so three pages of two.
    const target = messages.find((m) => m.id === 'm2')!;
    expect(await session.showMessage(target)).toBe(true);
    expect(session.conversationId).toBe('a1:trip');
    expect(ids()).toEqual(['m2', 'm3', 'm4', 'm5', 'm6', 'm7']);
    expect(session.focusId).toBe('m2');
    await vi.waitFor(() => expect(session.olderCount).toBe(1));

    // Another agent's message is refused and changes nothing.
    expect(await session.showMessage({ ...target, agentId: 'a2' })).toBe(false);
    expect(session.conversationId).toBe('a1:trip');
  });
});
