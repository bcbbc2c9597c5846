import { describe, expect, it } from 'vitest';
import { createAgentRecord } from '../../core/agent/create-agent-record';
import { defaultConversationId } from '../../core/model';
import { InMemorySearch } from '../../testing/in-memory-search';
import { InMemoryStore } from '../../testing/in-memory-store';
import { MemoryTurnLock } from '../../testing/memory-turn-lock';
import { NEW_CHAT_TITLE } from './conversation-list';
import { ConversationsState, selectedConversationKey } from './conversations.svelte';

async function setup() {
  const store = new InMemoryStore();
  await store.apply(createAgentRecord({ id: 'a1', name: 'Ada', now: 1 }).changes);
  const search = new InMemorySearch(store);
  const lock = new MemoryTurnLock();
  let now = 100;
  let n = 0;
  const state = new ConversationsState({
    store,
    search,
    lock,
    clock: { now: () => (now += 10) },
    newId: () => `c${(n += 1)}`,
  });
  return { store, search, lock, state };
}

/** Writes a user message into a conversation and indexes it, as a turn would. */
async function say(
  store: InMemoryStore,
  search: InMemorySearch,
  conversationId: string,
  text: string,
  at: number,
) {
  const { messages } = await store.apply({
    messages: [
      {
        id: `m${at}`,
        agentId: 'a1',
        conversationId,
        role: 'user',
        text,
        at,
        inContext: true,
        tokens: 5,
      },
    ],
  });
  await search.indexMessages(messages);
}

const found = async (search: InMemorySearch, text: string) =>
  (
    await search.search({
      agentId: 'a1',
      text,
      kinds: ['message'],
      mode: 'lexical',
      page: 1,
      pageSize: 10,
    })
  ).hits.map((h) => h.text);

describe('ConversationsState', () => {
  it('U187: an agent with no conversation gets a first one, selected', async () => {
    const { store, state } = await setup();
    await state.open('a1');
    expect(state.loaded).toBe(true);
    expect(state.list.map((c) => c.title)).toEqual([NEW_CHAT_TITLE]);
    expect(state.selectedId).toBe(defaultConversationId('a1'));
    expect((await store.listConversations('a1')).length).toBe(1);
  });

  it('U187: "New chat" adds an empty conversation on top, selected and remembered', async () => {
    const { store, search, state } = await setup();
    await state.open('a1');
    await say(store, search, defaultConversationId('a1'), 'hello', 50);
    const made = await state.create();
    expect(made?.id).toBe('a1:c1');
    expect(state.selectedId).toBe('a1:c1');
    expect(state.list[0]?.id).toBe('a1:c1');
    expect(await store.getSetting(selectedConversationKey('a1'))).toBe('a1:c1');

    // A second state (a reload) opens the remembered conversation, not the most recent one.
    await state.select(defaultConversationId('a1'));
    await state.create();
    await state.select(defaultConversationId('a1'));
    const again = new ConversationsState({
      store,
      search,
      lock: new MemoryTurnLock(),
      clock: { now: () => 1 },
      newId: () => 'x',
    });
    await again.open('a1');
    expect(again.selectedId).toBe(defaultConversationId('a1'));
    expect(again.list.map((c) => c.id)).toEqual(['a1:c2', 'a1:c1', defaultConversationId('a1')]);
  });

  it('U189: rename refuses empty and too-long titles with a message and writes nothing', async () => {
    const { store, state } = await setup();
    await state.open('a1');
    const id = state.selectedId!;
    expect(await state.rename(id, '   ')).toBe('A conversation needs a title.');
    expect(await state.rename(id, 'y'.repeat(81))).toMatch(/81 characters; at most 80/);
    expect((await store.getConversation(id))?.title).toBe(NEW_CHAT_TITLE);
    expect(await state.rename(id, '  Trip  planning ')).toBeNull();
    expect((await store.getConversation(id))?.title).toBe('Trip planning');
    expect(state.selected?.title).toBe('Trip planning');
  });

  it('names a new chat after its first message, but never replaces a chosen title', async () => {
    const { store, state } = await setup();
    await state.open('a1');
    const first = state.selectedId!;
    await state.nameFromFirstMessage(first, 'Where does my sister live?');
    expect((await store.getConversation(first))?.title).toBe('Where does my sister live?');
    await state.nameFromFirstMessage(first, 'Another message');
    expect((await store.getConversation(first))?.title).toBe('Where does my sister live?');
  });

  it('A24/U190: delete removes the messages from recall search; Undo brings them back', async () => {
    const { store, search, state } = await setup();
    await state.open('a1');
    const family = state.selectedId!;
    await state.rename(family, 'Family');
    await say(store, search, family, 'My sister Mia lives in Lisbon.', 200);
    const other = (await state.create())!;
    await say(store, search, other.id, 'Let us plan the garden.', 300);

    expect(await found(search, 'Lisbon')).toEqual(['My sister Mia lives in Lisbon.']);
    expect(await state.remove(family)).toBe(true);
    expect(await found(search, 'Lisbon')).toEqual([]);
    expect(await store.getConversation(family)).toBeUndefined();
    expect(state.list.map((c) => c.id)).toEqual([other.id]);
    expect(state.undoable?.conversation.title).toBe('Family');

    expect(await state.undo()).toBe(true);
    expect(await found(search, 'Lisbon')).toEqual(['My sister Mia lives in Lisbon.']);
    expect(await store.queryMessages('a1', { conversationId: family })).toHaveLength(1);
    expect(state.selectedId).toBe(family);
    expect(state.undoable).toBeNull();
  });

  it('deleting the shown conversation shows the most recent other; the last one starts a new chat', async () => {
    const { store, search, state } = await setup();
    await state.open('a1');
    const a = state.selectedId!;
    const b = (await state.create())!;
    await say(store, search, a, 'newer', 500);
    await state.select(b.id);
    await state.remove(b.id);
    expect(state.selectedId).toBe(a);
    await state.remove(a);
    expect(state.list).toHaveLength(1);
    expect(state.selected?.title).toBe(NEW_CHAT_TITLE);
    // A fresh id: undoing the deleted first conversation never clashes with the new one.
    expect(state.selectedId).not.toBe(a);
    expect(await state.undo()).toBe(true);
    expect(state.list.map((c) => c.id)).toContain(a);
  });

  it('delete is refused while another tab runs the agent, and nothing is lost', async () => {
    const { store, lock, state } = await setup();
    await state.open('a1');
    const id = state.selectedId!;
    const release = await lock.acquire('a1');
    expect(await state.remove(id)).toBe(false);
    expect(state.error).toMatch(/another tab/i);
    expect(await store.getConversation(id)).toBeDefined();
    await release?.();
  });

  it("U329: Suggest asks the model with the chat's first exchange, under the turn lock, and saves nothing itself", async () => {
    const store = new InMemoryStore();
    await store.apply(createAgentRecord({ id: 'a1', name: 'Ada', now: 1 }).changes);
    const lock = new MemoryTurnLock();
    const asked: unknown[] = [];
    let loaded = true;
    const state = new ConversationsState({
      store,
      search: new InMemorySearch(store),
      lock,
      clock: { now: () => 100 },
      newId: () => 'c1',
      modelReady: () => loaded,
      suggestTitle: (first) => {
        asked.push(first);
        return Promise.resolve('Pixel’s vet visit');
      },
    });
    await state.open('a1');
    const id = defaultConversationId('a1');
    expect(await state.suggestTitle(id)).toEqual({
      ok: false,
      error: 'This chat has no message to name it after yet.',
    });
    const base = { agentId: 'a1', conversationId: id, inContext: true, tokens: 3 };
    await store.apply({
      messages: [
        { ...base, id: 'u1', role: 'user', text: 'Pixel sees Dr. Okafor on Friday.', at: 2 },
        { ...base, id: 'r1', role: 'assistant', text: 'Good luck at the vet!', at: 3 },
        { ...base, id: 'u2', role: 'user', text: 'Thanks!', at: 4 },
      ],
    });
    expect(await state.suggestTitle(id)).toEqual({ ok: true, title: 'Pixel’s vet visit' });
    expect(asked).toEqual([
      { user: 'Pixel sees Dr. Okafor on Friday.', reply: 'Good luck at the vet!' },
    ]);
    // Nothing is saved until the user saves it.
    expect((await store.listConversations('a1')).map((c) => c.title)).not.toContain(
      'Pixel’s vet visit',
    );
    // A turn holds the engine: no second request runs beside it.
    const release = await lock.acquire('a1');
    expect((await state.suggestTitle(id)).ok).toBe(false);
    expect(asked).toHaveLength(1);
    release?.();
    // Without a loaded model, the form offers no Suggest.
    expect(state.canSuggest).toBe(true);
    loaded = false;
    expect(state.canSuggest).toBe(false);
  });
});
