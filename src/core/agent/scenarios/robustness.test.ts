/**
 * Scenario (e) — malformed and invalid steps fed back and recovered, or `invalid_tool_call` —
 * plus crash safety (A4, A7, A15, A17), the single-tab lock (A16), cancellation and the events
 * that start or enter a turn (A3).
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors';
import type { CompletionRequest } from '../../ports/llm-engine';
import {
  createAgentFixture,
  lastTurn,
  lastUserText,
  reply,
  step,
} from '../../../testing/agent-fixture';
import { CounterIds } from '../../../testing/counter-ids';
import { MemoryTurnLock } from '../../../testing/memory-turn-lock';
import { createRealStack } from '../../../testing/real-stack';
import { documentImportedText } from '../../prompts/event-copy';
import { recoverInterruptedTurns, retryTurn } from '../recover-turns';
import { runTurn } from '../run-turn';
import { DAY_MS } from '../start-turn';
import type { TurnEvent } from '../turn-events';

describe('scenarios: robustness', () => {
  it('A2 A5 (e): malformed and invalid steps are fed back and the model recovers', async () => {
    const prompts: string[] = [];
    const outputs = [
      'Sure! I will remember that.',
      step('core_memory_update', { label: 'human', content: 'Cat: Miso.' }, true),
      step('core_memory_append', { label: 'user', content: 'Cat: Miso.' }, true),
      step('core_memory_append', { label: 'human', content: 'Cat: Miso.' }, true),
      reply('I will remember Miso.'),
    ];
    const stack = await createRealStack({
      dbName: 'scenario-e1',
      enforceSchema: false,
      budgets: { maxInvalidSteps: 4 },
      rule: (r: CompletionRequest, i: number) => {
        prompts.push(lastTurn(r).content);
        return outputs[i] ?? reply('?');
      },
    });
    const outcome = await runTurn(stack.deps, stack.agent.id, {
      type: 'user_message',
      text: 'My cat is Miso.',
    });
    expect(outcome.stopReason).toBe('end_turn');
    expect(outcome.replies).toEqual(['I will remember Miso.']);
    expect(prompts[1]).toMatch(/^\[result of step\] Your step was not valid JSON/);
    expect(prompts[2]).toContain(
      'There is no function "core_memory_update"; use one of: send_message, core_memory_append',
    );
    expect(prompts[3]).toContain(
      '`label` of core_memory_append must be one of: human, persona (got "user").',
    );
    expect((await stack.store.getBlock(stack.agent.id, 'human'))?.value).toBe('Cat: Miso.');
    const steps = await stack.store.listSteps(outcome.turnId ?? '');
    expect(steps.map((s) => s.ok)).toEqual([false, false, false, true, true]);
  });

  it('A5 (e): consecutive invalid steps stop the turn with invalid_tool_call', async () => {
    const fx = await createAgentFixture({ rule: () => '{"function": "dance"}' });
    const outcome = await runTurn(fx.deps, fx.agent.id, { type: 'user_message', text: 'Hi' });
    expect(outcome.stopReason).toBe('invalid_tool_call');
    expect(outcome.steps).toBe(fx.agent.budgets.maxInvalidSteps);
    expect(fx.store.turns.get(outcome.turnId ?? '')).toMatchObject({
      status: 'done',
      stopReason: 'invalid_tool_call',
    });
  });

  it('A5: a chain that never yields stops at max_steps', async () => {
    const fx = await createAgentFixture({
      rule: () => step('conversation_search', { query: 'x' }, true),
      budgets: { maxSteps: 4 },
    });
    const outcome = await runTurn(fx.deps, fx.agent.id, { type: 'user_message', text: 'Hi' });
    expect(outcome).toMatchObject({ stopReason: 'max_steps', steps: 4 });
  });

  it('A15 A17: a crash mid-turn leaves committed steps whole; on reopen the turn is interrupted and retry completes it', async () => {
    const ids = new CounterIds();
    let crash = true;
    const rule = (r: CompletionRequest): string => {
      if (lastTurn(r).content.startsWith('[result of core_memory_append]')) {
        if (crash) throw new Error('tab closed');
        return reply('Saved, Ana.');
      }
      return step('core_memory_append', { label: 'human', content: 'Name: Ana.' }, true);
    };
    const tab1 = await createRealStack({ dbName: 'scenario-crash', rule, ids });
    // A hung second call stands in for the tab dying mid-generation: the turn never finishes.
    const never = new Promise<never>(() => {});
    const complete = tab1.engine.complete.bind(tab1.engine);
    let calls = 0;
    tab1.engine.complete = (request) => (++calls === 2 ? never : complete(request));
    void runTurn(tab1.deps, tab1.agent.id, { type: 'user_message', text: 'I am Ana.' });
    for (let i = 0; i < 400 && calls < 2; i += 1)
      await new Promise((resolve) => setTimeout(resolve, 5));
    expect(calls).toBe(2);

    crash = false;
    const tab2 = await createRealStack({ dbName: 'scenario-crash', rule, ids });
    const interrupted = await recoverInterruptedTurns(tab2.store, tab2.agent.id, tab2.clock);
    expect(interrupted).toHaveLength(1);
    const turnId = interrupted[0]?.id ?? '';
    expect((await tab2.store.getTurn(turnId))?.status).toBe('interrupted');
    // Step 1 committed whole: the block edit, its history row, the step record and its messages.
    expect((await tab2.store.getBlock(tab2.agent.id, 'human'))?.value).toBe('Name: Ana.');
    expect(await tab2.store.listSteps(turnId)).toHaveLength(1);
    const user = await tab2.store.queryMessages(tab2.agent.id, { roles: ['user'] });
    expect(user.map((m) => m.text)).toEqual(['I am Ana.']);

    const retried = await retryTurn(tab2.deps, tab2.agent.id, turnId);
    expect(retried.stopReason).toBe('end_turn');
    expect(retried.replies).toEqual(['Saved, Ana.']);
    const turns = await tab2.store.listTurns(tab2.agent.id);
    expect(turns.find((t) => t.id === retried.turnId)?.triggerMessageId).toBe(
      interrupted[0]?.triggerMessageId,
    );
    // The retry saw the committed edit and did not append it twice.
    expect((await tab2.store.getBlock(tab2.agent.id, 'human'))?.value).toBe('Name: Ana.');
  });

  it('A7: a failed step commit writes nothing of the step', async () => {
    const fx = await createAgentFixture({
      outputs: [step('archival_memory_insert', { content: 'boat is blue' }, true), reply('ok')],
    });
    const original = fx.store.apply.bind(fx.store);
    fx.store.apply = async (changes) => {
      if (changes.steps) throw new AppError('storage_quota_exceeded', 'full');
      return original(changes);
    };
    const outcome = await runTurn(fx.deps, fx.agent.id, { type: 'user_message', text: 'Save it' });
    expect(outcome).toMatchObject({
      stopReason: 'error',
      error: { code: 'storage_quota_exceeded' },
    });
    expect(fx.store.passages.size).toBe(0);
    expect(fx.store.steps).toHaveLength(0);
    expect([...fx.store.messages.values()].map((m) => m.role)).toEqual(['user']);
  });

  it('A16: a second tab cannot run the agent while the lock is held', async () => {
    const fx = await createAgentFixture({ rule: () => reply('hi') });
    const lock = new MemoryTurnLock('tab-1');
    const release = await lock.acquire(fx.agent.id);
    const outcome = await runTurn({ ...fx.deps, lock }, fx.agent.id, {
      type: 'user_message',
      text: 'Hi',
    });
    expect(outcome).toMatchObject({
      stopReason: 'error',
      turnId: null,
      error: { code: 'agent_busy' },
    });
    expect(fx.store.messages.size).toBe(0);
    await release?.();
    const after = await runTurn({ ...fx.deps, lock }, fx.agent.id, {
      type: 'user_message',
      text: 'Hi',
    });
    expect(after.stopReason).toBe('end_turn');
    expect(await lock.holder(fx.agent.id)).toBeNull();
  });

  it('A5: an abort stops the turn with cancelled and records it', async () => {
    const controller = new AbortController();
    const fx = await createAgentFixture({
      rule: () => {
        controller.abort();
        return reply('a long reply that will be interrupted');
      },
    });
    const outcome = await runTurn(
      fx.deps,
      fx.agent.id,
      { type: 'user_message', text: 'Hi' },
      { signal: controller.signal },
    );
    expect(outcome.stopReason).toBe('cancelled');
    expect(fx.store.turns.get(outcome.turnId ?? '')).toMatchObject({
      status: 'done',
      stopReason: 'cancelled',
    });
  });

  it('A5 C4: a message that cannot fit the window stops with context_overflow', async () => {
    const fx = await createAgentFixture({ rule: () => reply('hi') });
    const outcome = await runTurn(fx.deps, fx.agent.id, {
      type: 'user_message',
      text: 'word '.repeat(12000),
    });
    expect(outcome).toMatchObject({
      stopReason: 'context_overflow',
      error: { code: 'context_window_exceeded' },
    });
    expect(fx.engine.requests).toHaveLength(0);
  });

  it('A3: a return after days adds a timestamped session-start event; a document import can start a turn', async () => {
    const fx = await createAgentFixture({ rule: () => reply('Welcome back!') });
    await runTurn(fx.deps, fx.agent.id, { type: 'user_message', text: 'Hi' });
    fx.clock.advance(12 * DAY_MS);
    const events: TurnEvent[] = [];
    await runTurn(
      fx.deps,
      fx.agent.id,
      { type: 'user_message', text: 'Hello again' },
      { onEvent: (e) => events.push(e) },
    );
    const planned = events.find((e) => e.type === 'context.planned');
    const prompt = planned?.type === 'context.planned' ? planned.plan.prompt : [];
    expect(
      prompt.some((t) =>
        /^\[event 2026-01-13 \d\d:\d\d UTC\] The user is back: first message in 12 days\.$/.test(
          t.content,
        ),
      ),
    ).toBe(true);
    await runTurn(fx.deps, fx.agent.id, {
      type: 'event',
      kind: 'document_imported',
      text: documentImportedText('Notes.md', 12, 5400),
    });
    const last = fx.engine.requests.at(-1);
    expect(last && lastTurn(last).content).toMatch(
      /^\[event .* UTC\] Document "Notes.md" was imported into archival memory: 12 passages/,
    );
  });
});

describe('scenarios: streaming', () => {
  it('A9: with the scripted engine streaming in chunks, each streamed text extends the last', async () => {
    const text = 'Bonjour "Ana" — 你好！\nSee you at 9:30.';
    const stack = await createRealStack({ dbName: 'scenario-stream', rule: () => reply(text) });
    const streamed: string[] = [];
    const outcome = await runTurn(
      stack.deps,
      stack.agent.id,
      { type: 'user_message', text: 'Hi' },
      { onEvent: (e) => e.type === 'message.streamed' && streamed.push(e.text) },
    );
    expect(outcome.replies).toEqual([text]);
    expect(streamed.length).toBeGreaterThan(3);
    expect(streamed.at(-1)).toBe(text);
    for (let i = 1; i < streamed.length; i += 1) {
      expect(streamed[i]?.startsWith(streamed[i - 1] ?? '')).toBe(true);
    }
  });
});

describe('scenarios: retry after the conversation moved on', () => {
  it('A17: retrying an older interrupted turn asks its message again at the end of the queue', async () => {
    const fx = await createAgentFixture({ rule: (r) => reply(`re: ${lastUserText(r)}`) });
    const first = await runTurn(fx.deps, fx.agent.id, {
      type: 'user_message',
      text: 'First question',
    });
    // Pretend it was cut off, then the user went on.
    const turn = fx.store.turns.get(first.turnId ?? '');
    if (!turn) throw new Error('no turn');
    await fx.store.apply({ turns: [{ ...turn, status: 'running' }] });
    await recoverInterruptedTurns(fx.store, fx.agent.id);
    await runTurn(fx.deps, fx.agent.id, { type: 'user_message', text: 'Second question' });
    const retried = await retryTurn(fx.deps, fx.agent.id, turn.id);
    expect(retried.replies).toEqual(['re: First question']);
    const users = await fx.store.queryMessages(fx.agent.id, { roles: ['user'] });
    expect(users.map((m) => m.text)).toEqual([
      'First question',
      'Second question',
      'First question',
    ]);
    expect(fx.store.turns.get(retried.turnId ?? '')?.triggerMessageId).toBe(users[2]?.id);
  });
});
