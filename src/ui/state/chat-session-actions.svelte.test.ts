/**
 * Message actions on the real stack (U183–U185): the Dexie store over fake-indexeddb, the real
 * memory search and the real turn loop with the scripted engine, driven through the ChatSession.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runTurn } from '../../core/agent/run-turn';
import type { CompletionRequest } from '../../core/ports/llm-engine';
import { reply } from '../../testing/agent-fixture';
import { MemoryTurnLock } from '../../testing/memory-turn-lock';
import { createRealStack, type RealStack } from '../../testing/real-stack';
import { chatItems } from './chat-items';
import { ChatSession, type TurnRunner } from './chat-session.svelte';

const open: { session: ChatSession; stack: RealStack }[] = [];
afterEach(() => {
  for (const { session, stack } of open.splice(0)) {
    session.close();
    stack.store.close();
  }
});
let n = 0;

/** The text of the newest user message the model was shown. */
function lastUserText(request: CompletionRequest): string {
  const users = request.messages.filter((m) => m.role === 'user');
  return String(users[users.length - 1]?.content ?? '');
}

async function setup(options: { failNext?: () => boolean; hold?: () => Promise<void> } = {}) {
  n += 1;
  let answers = 0;
  /** Every step's prompt, as text (which version of a reply the model was shown, U331). */
  const prompts: string[] = [];
  const stack = await createRealStack({
    dbName: `chat-actions-${n}-${Date.now()}`,
    autoRecall: false,
    // Each reply is numbered and quotes the end of the user's message, so a test can tell a
    // regenerated reply from the old one and see which text it answered.
    rule: (request) => {
      if (!request.jsonSchema) return 'summary';
      prompts.push(request.messages.map((m) => String(m.content)).join('\n'));
      answers += 1;
      const said = lastUserText(request).split('\n').pop() ?? '';
      return reply(`Answer ${answers} to: ${said.slice(-40)}`);
    },
  });
  const lock = new MemoryTurnLock();
  const calls: Parameters<TurnRunner>[1][] = [];
  const session = new ChatSession({
    store: stack.store,
    search: stack.search,
    lock,
    modelReady: () => true,
    run: async (agentId, trigger, opts) => {
      calls.push(trigger);
      if (options.failNext?.()) throw new Error('the model would not load');
      // As main.ts may, before the turn starts (loading the agent's model).
      await options.hold?.();
      return runTurn({ ...stack.deps, lock }, agentId, trigger, opts);
    },
  });
  open.push({ session, stack });
  await session.open(stack.agent.id);
  await vi.waitFor(() => expect(session.loaded).toBe(true));
  const bubbles = () =>
    chatItems(session.messages, session.turns, session.steps).flatMap((i) =>
      i.type === 'message' ? [`${i.message.role}: ${i.message.text}`] : [],
    );
  const found = async (text: string) => {
    const page = await stack.search.search({
      agentId: stack.agent.id,
      text,
      kinds: ['message'],
      mode: 'lexical',
      page: 1,
      pageSize: 10,
    });
    return page.hits.map((h) => h.text);
  };
  const sendAndSettle = async (text: string) => {
    expect(await session.send(text)).toBe(true);
    await vi.waitFor(() => expect(session.latest?.regenerateId).toBeTruthy());
  };
  return { stack, session, lock, calls, bubbles, found, sendAndSettle, prompts };
}

describe('ChatSession message actions (real store, search and loop)', () => {
  it('U185: delete takes a message out of the chat and search; Undo brings it back searchable', async () => {
    const t = await setup();
    await t.sendAndSettle('my sister Ingrid lives in Bergen');
    const mine = t.session.messages.find((m) => m.role === 'user')!;
    expect(await t.found('Ingrid')).toContain('my sister Ingrid lives in Bergen');

    await t.session.deleteMessage(mine.id);
    await vi.waitFor(() => expect(t.session.messages.map((m) => m.id)).not.toContain(mine.id));
    expect(await t.found('Ingrid')).not.toContain('my sister Ingrid lives in Bergen');
    expect(t.session.undoable?.deleted.messages.map((m) => m.id)).toEqual([mine.id]);
    expect(t.session.undoable?.summarised).toBe(false);
    const window = await t.stack.store.queryMessages(t.stack.agent.id, { inContext: true });
    expect(window.map((m) => m.id)).not.toContain(mine.id);

    await t.session.undoDelete();
    await vi.waitFor(() => expect(t.session.messages.map((m) => m.id)).toContain(mine.id));
    expect(t.session.undoable).toBeNull();
    expect(await t.found('Ingrid')).toContain('my sister Ingrid lives in Bergen');
    const [back] = await t.stack.store.getMessages([mine.id]);
    expect(back).toEqual(mine);
  });

  it('U185: a new turn makes the delete final (no Undo behind newer messages)', async () => {
    const t = await setup();
    await t.sendAndSettle('first message');
    const reply = t.session.messages.find((m) => m.role === 'assistant' && m.text)!;
    await t.session.deleteMessage(t.session.latest!.regenerateId!);
    expect(t.session.undoable).not.toBeNull();
    await t.sendAndSettle('second message');
    expect(t.session.undoable).toBeNull();
    expect(await t.stack.store.getMessages([reply.id])).toEqual([]);
  });

  it('U183: edit deletes the latest turn and sends the edited text as a new turn', async () => {
    const t = await setup();
    await t.sendAndSettle('the cat is called Tom');
    await t.sendAndSettle('what is the dog called');
    const latest = t.session.latest!;
    expect(await t.session.editAndResend(latest.editId!, 'what is the parrot called')).toBe(true);
    await vi.waitFor(() =>
      expect(t.bubbles()).toEqual([
        'user: the cat is called Tom',
        'assistant: Answer 1 to: the cat is called Tom',
        'user: what is the parrot called',
        'assistant: Answer 3 to: what is the parrot called',
      ]),
    );
    expect(t.calls.at(-1)).toEqual({ type: 'user_message', text: 'what is the parrot called' });
    // The old message and its reply left search too.
    expect((await t.found('dog')).filter((text) => text.includes('dog'))).toEqual([]);
  });

  it('U184: regenerate replaces the latest reply; exactly one reply to the message remains', async () => {
    const t = await setup();
    await t.sendAndSettle('tell me a joke');
    const before = t.session.latest!;
    expect(await t.session.regenerate(before.regenerateId!)).toBe(true);
    await vi.waitFor(() =>
      expect(t.bubbles()).toEqual([
        'user: tell me a joke',
        'assistant: Answer 2 to: tell me a joke',
      ]),
    );
    expect(t.calls.at(-1)).toEqual({ type: 'retry', turnId: before.turnId });
    // The same user message, not a copy; one list of steps (the new turn's).
    expect(t.session.messages.filter((m) => m.role === 'user')).toHaveLength(1);
    const steps = chatItems(t.session.messages, t.session.turns, t.session.steps).filter(
      (i) => i.type === 'steps',
    );
    expect(steps).toHaveLength(1);
    // Regenerate is now offered on the new reply.
    expect(t.session.latest?.regenerateId).not.toBe(before.regenerateId);
    expect(await t.found('joke')).toEqual(['tell me a joke', 'Answer 2 to: tell me a joke']);
  });

  it('U183/U184: only the latest turn can be edited or regenerated; nothing runs for older ones', async () => {
    const t = await setup();
    await t.sendAndSettle('one');
    const old = t.session.latest!;
    await t.sendAndSettle('two');
    const calls = t.calls.length;
    expect(await t.session.editAndResend(old.editId!, 'changed')).toBe(false);
    expect(await t.session.regenerate(old.regenerateId!)).toBe(false);
    expect(t.calls).toHaveLength(calls);
    expect(t.bubbles()).toHaveLength(4);
  });

  it('U186: nothing changes while another tab holds the agent; the chat says so', async () => {
    const t = await setup();
    await t.sendAndSettle('hello');
    const release = await t.lock.acquire(t.stack.agent.id);
    expect(release).not.toBeNull();
    const before = t.bubbles();
    await t.session.deleteMessage(t.session.latest!.regenerateId!);
    expect(await t.session.editAndResend(t.session.latest!.editId!, 'hello?')).toBe(false);
    expect(t.session.error?.code).toBe('agent_busy');
    expect(t.session.undoable).toBeNull();
    expect((await t.stack.store.queryMessages(t.stack.agent.id)).length).toBeGreaterThanOrEqual(2);
    expect(t.bubbles()).toEqual(before);
    await release!();
  });

  it('U183: when the new turn cannot start, the edited-away messages are put back', async () => {
    let fail = false;
    const t = await setup({ failNext: () => fail });
    await t.sendAndSettle('keep me');
    const before = await t.stack.store.queryMessages(t.stack.agent.id);
    fail = true;
    expect(await t.session.editAndResend(t.session.latest!.editId!, 'replace me')).toBe(false);
    expect(t.session.error).not.toBeNull();
    expect(await t.stack.store.queryMessages(t.stack.agent.id)).toEqual(before);
    expect(await t.found('keep')).toContain('keep me');
  });

  it('U185: deleting a message that left the window says the summary may still mention it', async () => {
    const t = await setup();
    await t.sendAndSettle('an old thing I said');
    const mine = t.session.messages.find((m) => m.role === 'user')!;
    await t.stack.store.apply({ inContext: { ids: [mine.id], inContext: false } });
    await t.session.deleteMessage(mine.id);
    expect(t.session.undoable?.summarised).toBe(true);
    await t.session.undoDelete();
    const [back] = await t.stack.store.getMessages([mine.id]);
    expect(back?.inContext).toBe(false);
  });

  it('U186: while a turn runs here, delete, edit and regenerate do nothing', async () => {
    let release: () => void = () => {};
    let gate = Promise.resolve();
    const t = await setup({ hold: () => gate });
    await t.sendAndSettle('first');
    const latest = t.session.latest!;
    gate = new Promise<void>((r) => (release = r));
    const running = t.session.send('second');
    expect(t.session.running).toBe(true);
    expect(t.session.canChange).toBe(false);
    await t.session.deleteMessage(latest.editId!);
    expect(await t.session.regenerate(latest.regenerateId!)).toBe(false);
    expect(await t.session.editAndResend(latest.editId!, 'changed')).toBe(false);
    expect(t.session.undoable).toBeNull();
    expect(t.session.running).toBe(true);
    release();
    await running;
    expect(t.session.canChange).toBe(true);
    expect(await t.stack.store.getMessages([latest.editId!])).toHaveLength(1);
  });

  it('U331: Regenerate keeps versions; the one switched to is the one the next turn reads', async () => {
    const t = await setup();
    await t.sendAndSettle('tell me a joke');
    for (const shown of [2, 3]) {
      expect(await t.session.regenerate(t.session.latest!.regenerateId!)).toBe(true);
      await vi.waitFor(() => expect(t.session.latest?.versions).toEqual({ shown, count: shown }));
    }
    expect(t.bubbles()).toEqual(['user: tell me a joke', 'assistant: Answer 3 to: tell me a joke']);
    expect(await t.session.switchVersion(1)).toBe(true);
    await vi.waitFor(() => expect(t.session.latest?.versions).toEqual({ shown: 1, count: 3 }));
    expect(t.bubbles()).toEqual(['user: tell me a joke', 'assistant: Answer 1 to: tell me a joke']);
    // One list of steps: the kept version's.
    const steps = chatItems(t.session.messages, t.session.turns, t.session.steps).filter(
      (i) => i.type === 'steps',
    );
    expect(steps).toHaveLength(1);
    expect((await t.found('joke')).sort()).toEqual([
      'Answer 1 to: tell me a joke',
      'tell me a joke',
    ]);

    await t.sendAndSettle('another one');
    const prompt = t.prompts.at(-1)!;
    expect(prompt).toContain('Answer 1 to: tell me a joke');
    expect(prompt).not.toContain('Answer 3 to');
    expect(prompt).not.toContain('Answer 2 to');
    // The choice is final once the chat moved on: the new reply has no versions.
    expect(t.session.latest?.versions).toBeNull();
  });

  it('U331: Delete of a reply with versions deletes the shown one, the newest other takes its place; Undo puts it back', async () => {
    const t = await setup();
    await t.sendAndSettle('tell me a joke');
    for (const count of [2, 3]) {
      expect(await t.session.regenerate(t.session.latest!.regenerateId!)).toBe(true);
      await vi.waitFor(() => expect(t.session.latest?.versions?.count).toBe(count));
    }
    await t.session.switchVersion(2);
    await vi.waitFor(() => expect(t.session.latest?.versions?.shown).toBe(2));
    await t.session.deleteMessage(t.session.latest!.regenerateId!);
    await vi.waitFor(() => expect(t.session.latest?.versions).toEqual({ shown: 2, count: 2 }));
    expect(t.bubbles()).toEqual(['user: tell me a joke', 'assistant: Answer 3 to: tell me a joke']);
    expect(await t.found('Answer')).toEqual(['Answer 3 to: tell me a joke']);
    await t.session.undoDelete();
    await vi.waitFor(() => expect(t.session.latest?.versions).toEqual({ shown: 2, count: 3 }));
    expect(t.bubbles()).toEqual(['user: tell me a joke', 'assistant: Answer 2 to: tell me a joke']);
    expect(await t.found('Answer')).toEqual(['Answer 2 to: tell me a joke']);
    // Deleting down to one version leaves an ordinary reply.
    await t.session.deleteMessage(t.session.latest!.regenerateId!);
    await vi.waitFor(() => expect(t.session.latest?.versions?.count).toBe(2));
    await t.session.deleteMessage(t.session.latest!.regenerateId!);
    await vi.waitFor(() => expect(t.session.latest?.versions).toBeNull());
    expect(t.bubbles()).toEqual(['user: tell me a joke', 'assistant: Answer 1 to: tell me a joke']);
  });
});
