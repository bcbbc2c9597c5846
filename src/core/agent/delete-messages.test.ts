import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { createRealStack, type RealStack } from '../../testing/real-stack';
import { deleteConversation } from './delete-conversation';
import { deleteMessages, restoreMessages } from './delete-messages';

const stacks: RealStack[] = [];
afterEach(() => stacks.splice(0).forEach((s) => s.store.close()));
let n = 0;

async function stack(): Promise<RealStack> {
  n += 1;
  const s = await createRealStack({ dbName: `delete-messages-${n}-${Date.now()}`, rule: () => '' });
  stacks.push(s);
  return s;
}

async function found(s: RealStack, text: string): Promise<string[]> {
  const page = await s.search.search({
    agentId: s.agent.id,
    text,
    kinds: ['message'],
    mode: 'lexical',
    page: 1,
    pageSize: 10,
  });
  return page.hits.map((h) => h.id);
}

describe('deleteMessages / restoreMessages (S24, ADR 0143)', () => {
  it('a deleted message leaves search and the window; Undo brings it back searchable', async () => {
    const s = await stack();
    const base = { agentId: s.agent.id, inContext: true, tokens: 5 };
    const { messages } = await s.store.apply({
      messages: [
        { ...base, id: 'u1', role: 'user', text: 'my sister Ingrid lives in Bergen', at: 1 },
        { ...base, id: 'a1', role: 'assistant', text: 'Bergen is rainy', at: 2 },
      ],
    });
    await s.search.indexMessages(messages);
    expect(await found(s, 'Ingrid')).toEqual(['u1']);

    const deleted = await deleteMessages(s.deps, s.agent.id, ['u1']);
    expect(await found(s, 'Ingrid')).toEqual([]);
    const window = await s.store.queryMessages(s.agent.id, { inContext: true });
    expect(window.map((m) => m.id)).not.toContain('u1');

    await restoreMessages(s.deps, deleted);
    expect(await found(s, 'Ingrid')).toEqual(['u1']);
    const [back] = await s.store.getMessages(['u1']);
    expect(back).toEqual(messages[0]);
    // And after a reload of the indexes (next start) it is still searchable.
    await s.search.loadAgent(s.agent.id);
    expect(await found(s, 'Ingrid')).toEqual(['u1']);
  });

  it('S42: Undo of a message whose chat was deleted since refuses in words and writes nothing (a backup stays restorable)', async () => {
    const s = await stack();
    const chat = { id: 'c-other', agentId: s.agent.id, title: 'Trip', createdAt: 1, updatedAt: 1 };
    const base = { agentId: s.agent.id, conversationId: chat.id, inContext: true, tokens: 5 };
    const { messages } = await s.store.apply({
      conversations: [chat],
      messages: [
        { ...base, id: 'u1', role: 'user', text: 'the ferry leaves at nine', at: 1 },
        { ...base, id: 'u2', role: 'user', text: 'bring the tickets', at: 2 },
      ],
    });
    await s.search.indexMessages(messages);
    const deleted = await deleteMessages(s.deps, s.agent.id, ['u1']);
    await deleteConversation(s.deps, chat.id);

    await expect(restoreMessages(s.deps, deleted)).rejects.toMatchObject({ code: 'not_found' });
    expect(await s.store.getMessages(['u1'])).toEqual([]);
    expect(await found(s, 'ferry')).toEqual([]);
  });
});
