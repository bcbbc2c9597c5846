import { describe, expect, it } from 'vitest';
import { createAgentFixture, reply, step } from '../../testing/agent-fixture';
import { parseForgettingState, pinMemory } from '../strategies/forgetting';
import { runTurn } from './run-turn';
import type { TurnEvent } from './turn-events';

describe('runTurn basics', () => {
  it('A4: stores the user message and a running turn before the first inference', async () => {
    const fx = await createAgentFixture();
    let seenAtInference: string[] = [];
    fx.engine.push(reply('Hi!'));
    const original = fx.engine.complete.bind(fx.engine);
    fx.engine.complete = async (request) => {
      seenAtInference = [...fx.store.messages.values()].map((m) => `${m.role}:${m.text}`);
      expect([...fx.store.turns.values()][0]?.status).toBe('running');
      return original(request);
    };
    const outcome = await runTurn(fx.deps, fx.agent.id, {
      type: 'user_message',
      text: 'Hello there',
    });
    expect(seenAtInference).toContain('user:Hello there');
    expect(outcome.stopReason).toBe('end_turn');
    expect(outcome.replies).toEqual(['Hi!']);
    expect(fx.store.turns.get(outcome.turnId ?? '')?.status).toBe('done');
  });

  it('A8: emits context.planned, message.streamed, tool.called and turn.stopped in order', async () => {
    const fx = await createAgentFixture({ outputs: [reply('Hello, "friend"\n!')] });
    const events: TurnEvent[] = [];
    await runTurn(
      fx.deps,
      fx.agent.id,
      { type: 'user_message', text: 'Hi' },
      { onEvent: (e) => events.push(e) },
    );
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('turn.started');
    expect(types[1]).toBe('context.planned');
    expect(types.at(-1)).toBe('turn.stopped');
    const streamed = events.filter((e) => e.type === 'message.streamed');
    expect(streamed.length).toBeGreaterThan(2);
    const texts = streamed.map((e) => (e.type === 'message.streamed' ? e.text : ''));
    for (let i = 1; i < texts.length; i += 1)
      expect(texts[i]?.startsWith(texts[i - 1] ?? '')).toBe(true);
    expect(texts.at(-1)).toBe('Hello, "friend"\n!');
  });

  it('A6: a heartbeat chains a tool step into a reply; each step commits once', async () => {
    const fx = await createAgentFixture({
      outputs: [
        step('core_memory_append', { label: 'human', content: 'Name: Ana.' }, true),
        reply('Noted, Ana.'),
      ],
    });
    const before = fx.store.applyCount;
    const events: TurnEvent[] = [];
    const outcome = await runTurn(
      fx.deps,
      fx.agent.id,
      { type: 'user_message', text: 'I am Ana' },
      { onEvent: (e) => events.push(e) },
    );
    expect(outcome.steps).toBe(2);
    // trigger + 2 steps
    expect(fx.store.applyCount - before).toBe(3);
    expect((await fx.store.getBlock(fx.agent.id, 'human'))?.value).toBe('Name: Ana.');
    const history = await fx.store.blockHistory(fx.agent.id, 'human');
    expect(history.at(-1)?.source).toEqual({
      type: 'tool',
      turnId: outcome.turnId,
      step: 1,
      tool: 'core_memory_append',
    });
    expect(events.some((e) => e.type === 'memory.changed')).toBe(true);
    expect(fx.store.steps.map((s) => s.ok)).toEqual([true, true]);
  });

  it('A42: a reply carries how it was written — the model, the wait from Send to its first word (earlier steps included), its tokens and decoding time; no other message does', async () => {
    const statsOf = async (outputs: string[]) => {
      const fx = await createAgentFixture({ outputs });
      const outcome = await runTurn(fx.deps, fx.agent.id, { type: 'user_message', text: 'Hi' });
      expect(outcome.stopReason).toBe('end_turn');
      const messages = [...fx.store.messages.values()];
      const replies = messages.filter((m) => m.role === 'assistant' && m.text !== '');
      expect(replies).toHaveLength(1);
      for (const other of messages.filter((m) => m !== replies[0]))
        expect(other.stats, `${other.role}: ${other.text}`).toBeUndefined();
      return { stats: replies[0]!.stats!, fx };
    };
    const { stats, fx } = await statsOf([reply('Hello there, friend.')]);
    expect(stats.model).toBe('fake-model');
    expect(stats.tokens).toBe(fx.tokenizer.count(reply('Hello there, friend.')));
    expect(Number.isInteger(stats.firstWordMs) && stats.firstWordMs! > 0).toBe(true);
    expect(Number.isInteger(stats.decodeMs) && stats.decodeMs! > 0).toBe(true);
    // A memory edit first: the user waited for that step too.
    const { stats: later } = await statsOf([
      step('core_memory_append', { label: 'human', content: 'Name: Ana.' }, true),
      reply('Hello there, friend.'),
    ]);
    expect(later.firstWordMs!).toBeGreaterThan(stats.firstWordMs!);
  });

  it('A43: on an engine that says what it reused, a reply also carries what its step read new and how long reading took', async () => {
    const fx = await createAgentFixture({
      outputs: [reply('Hi.'), reply('Fine.')],
      prefixCache: true,
    });
    await runTurn(fx.deps, fx.agent.id, { type: 'user_message', text: 'Hi' });
    await runTurn(fx.deps, fx.agent.id, { type: 'user_message', text: 'How are you?' });
    const replies = [...fx.store.messages.values()].filter(
      (m) => m.role === 'assistant' && m.text !== '',
    );
    const [first, second] = replies.map((m) => m.stats!);
    const prompts = fx.engine.requests.map((r) =>
      r.messages.reduce((n, t) => n + fx.tokenizer.countMessage(t.role, t.content), 0),
    );
    // The first request reads its whole prompt; the second only what follows the shared start.
    expect(first?.readTokens).toBe(prompts[0]);
    expect(second?.readTokens).toBeGreaterThan(0);
    expect(second!.readTokens!).toBeLessThan(prompts[1]!);
    for (const stats of [first, second]) {
      expect(Number.isInteger(stats?.readMs) && stats!.readMs! >= 0).toBe(true);
      expect(stats!.readMs!).toBeLessThanOrEqual(stats!.firstWordMs!);
    }
    // An engine that does not say what it reused (web-llm): nothing is claimed.
    const plain = await createAgentFixture({ outputs: [reply('Hi.')] });
    await runTurn(plain.deps, plain.agent.id, { type: 'user_message', text: 'Hi' });
    const stats = [...plain.store.messages.values()].find((m) => m.stats)?.stats;
    expect(stats?.readTokens).toBeUndefined();
    expect(stats?.readMs).toBeUndefined();
  });

  it('A10: a fault in the engine ends the turn with error and its code, never a throw', async () => {
    const fx = await createAgentFixture({ outputs: [new Error('boom')] });
    const outcome = await runTurn(fx.deps, fx.agent.id, { type: 'user_message', text: 'Hi' });
    expect(outcome.stopReason).toBe('error');
    expect(outcome.error?.code).toBe('internal');
    expect(fx.store.turns.get(outcome.turnId ?? '')?.error).toContain('internal');
  });
});

describe('runTurn with other strategies', () => {
  it('C1 C9: window, recency and forgetting agents stay in the window without flushing; forgetting state persists', async () => {
    for (const name of ['window', 'recency', 'forgetting'] as const) {
      const fx = await createAgentFixture({
        window: 2048,
        rule: (r) => (r.jsonSchema ? reply('ok, noted') : 'summary'),
      });
      await fx.store.apply({ agents: [{ ...fx.agent, strategy: name }] });
      const events: TurnEvent[] = [];
      for (let i = 0; i < 40; i += 1) {
        const outcome = await runTurn(
          fx.deps,
          fx.agent.id,
          {
            type: 'user_message',
            text: `note ${i}: the garden and the piano and the long train ride`,
          },
          { onEvent: (e) => events.push(e) },
        );
        expect(outcome.stopReason, name).toBe('end_turn');
      }
      expect(
        events.some((e) => e.type === 'summary.created'),
        name,
      ).toBe(false);
      const plans = events.flatMap((e) => (e.type === 'context.planned' ? [e.plan] : []));
      for (const plan of plans) expect(plan.total).toBeLessThanOrEqual(2048);
      expect(plans.at(-1)?.strategy).toBe(name);
      if (name === 'forgetting')
        expect(await fx.store.getSetting(`strategy:forgetting:${fx.agent.id}`)).toBeDefined();
    }
  });
});

describe('runTurn and the user, on the forgetting state', () => {
  it('F16: a pin made while the round is planned is kept, and the round is not lost either', async () => {
    const fx = await createAgentFixture({
      window: 2048,
      rule: (r) => (r.jsonSchema ? reply('ok, noted') : 'summary'),
    });
    await fx.store.apply({ agents: [{ ...fx.agent, strategy: 'forgetting' }] });
    const key = `strategy:forgetting:${fx.agent.id}`;
    const turn = (i: number) =>
      runTurn(fx.deps, fx.agent.id, { type: 'user_message', text: `note ${i}: the garden` });
    for (let i = 0; i < 3; i += 1) await turn(i);
    const before = parseForgettingState(await fx.store.getSetting(key));
    const target = before.shortTerm[0];
    expect(target).toBeDefined();

    // The user pins an item from the memory panel just as the next plan is being saved: the pin
    // lands between the loop's read of the state and its write.
    const update = fx.store.updateSetting.bind(fx.store);
    let raced = false;
    fx.store.updateSetting = async <T>(
      k: string,
      fn: (current: T | undefined) => T | undefined,
    ) => {
      if (k === key && !raced) {
        raced = true;
        const pinned = pinMemory(parseForgettingState(await fx.store.getSetting(key)), target!);
        if (!pinned.ok) throw new Error(pinned.error.message);
        await fx.store.setSetting(key, pinned.value);
      }
      return update(k, fn);
    };
    await turn(3);
    expect(raced).toBe(true);

    const after = parseForgettingState(await fx.store.getSetting(key));
    expect(after.items[target!]?.pinned).toBe(true);
    expect(after.rounds).toBeGreaterThan(before.rounds);
  });
});
