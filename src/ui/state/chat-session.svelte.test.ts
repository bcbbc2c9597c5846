import { describe, expect, it } from 'vitest';
import { createAgentRecord } from '../../core/agent/create-agent-record';
import type { TurnEvent, TurnOutcome } from '../../core/agent/turn-events';
import type { ContextPlan } from '../../core/context/plan-context';
import type { Message } from '../../core/model';
import type { ReadSpeed } from '../../core/context/read-speed';
import { InMemoryStore } from '../../testing/in-memory-store';
import { MemoryTurnLock } from '../../testing/memory-turn-lock';
import { ChatSession, type TurnRunner } from './chat-session.svelte';

function plan(memories: string[], total = 900): ContextPlan {
  return {
    strategy: 'memgpt',
    window: 4096,
    total,
    sections: {
      system: 300,
      tools: 200,
      core: 100,
      summary: 0,
      memories: 50,
      messages: 250,
      reserve: 0,
    },
    messages: [],
    messageIds: [],
    overflowIds: [],
    evictableIds: [],
    memories: memories.map((id) => ({ id, text: id, tokens: 5, origin: 'recall' as const })),
    demand: total,
    prompt: [],
  };
}

async function setup(
  options: { modelReady?: boolean; fastReplies?: boolean; speeds?: ReadSpeed } = {},
) {
  const store = new InMemoryStore();
  const { changes } = createAgentRecord({ id: 'a1', name: 'Ada', now: 1 });
  await store.apply(changes);
  const marks: string[][] = [];
  let ended = 0;
  const calls: Parameters<TurnRunner>[] = [];
  let script: (
    emit: (e: TurnEvent) => void,
    signal: AbortSignal,
  ) => Promise<TurnOutcome> = async () => ({
    turnId: 't1',
    stopReason: 'end_turn',
    steps: 1,
    replies: [],
  });
  const session = new ChatSession({
    store,
    search: { removeMessages: () => Promise.resolve(), indexMessages: () => Promise.resolve() },
    lock: new MemoryTurnLock(),
    modelReady: () => options.modelReady ?? true,
    fastReplies: () => options.fastReplies ?? false,
    ...(options.speeds
      ? { speeds: { note: () => undefined, speed: () => options.speeds ?? null } }
      : {}),
    run: (agentId, trigger, opts) => {
      calls.push([agentId, trigger, opts]);
      return script(opts.onEvent, opts.signal);
    },
    highlights: { mark: (keys) => marks.push(typeof keys === 'string' ? [keys] : [...keys]) },
    onGenerationEnded: () => {
      ended += 1;
    },
  });
  await session.open('a1');
  return {
    session,
    calls,
    marks,
    ended: () => ended,
    setScript: (s: typeof script) => {
      script = s;
    },
  };
}

describe('ChatSession', () => {
  it('A44: with "Fast replies" a turn asks for a recall cap from the speed the chat\'s replies were read at', async () => {
    const timed = (model: string, readTokens: number, readMs: number) =>
      ({
        id: `m-${readTokens}`,
        role: 'assistant',
        text: 'ok',
        stats: { model, readTokens, readMs },
      }) as unknown as Message;
    const fast = await setup({ fastReplies: true });
    // Unknown before a timed reply of the model: no cap.
    expect(fast.session.recallCapFor('qwen')).toBeNull();
    fast.session.messages = [timed('qwen', 1300, 100_000), timed('qwen', 650, 50_000)];
    expect(fast.session.recallCapFor('qwen')).toBe(52); // 13 tokens/s × 4 s
    expect(fast.session.recallCapFor('llama')).toBeNull();
    expect(fast.session.recallCapFor(null)).toBeNull();
    await fast.session.send('hi');
    expect(fast.calls[0]?.[2].recallCapFor?.('qwen')).toBe(52);
    // A new chat knows the speed from the device's book before its first reply.
    const book = await setup({ fastReplies: true, speeds: { tokensPerSecond: 100, samples: 3 } });
    expect(book.session.messages).toEqual([]);
    expect(book.session.recallCapFor('qwen')).toBe(400);
    const thorough = await setup({ fastReplies: false });
    thorough.session.messages = fast.session.messages;
    expect(thorough.session.recallCapFor('qwen')).toBeNull();
  });

  it('U1: streamed reply text is visible while the turn runs, and cleared when it ends', async () => {
    const t = await setup();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    t.setScript(async (emit) => {
      emit({ type: 'turn.started', turnId: 't1', triggerMessageId: 'm1', at: 2 });
      emit({ type: 'message.streamed', turnId: 't1', step: 1, text: 'Hel', done: false });
      emit({ type: 'message.streamed', turnId: 't1', step: 1, text: 'Hello there', done: false });
      await gate;
      emit({ type: 'turn.stopped', turnId: 't1', stopReason: 'end_turn', steps: 1, at: 3 });
      return { turnId: 't1', stopReason: 'end_turn', steps: 1, replies: ['Hello there'] };
    });
    const sent = t.session.send('hi');
    await new Promise((r) => setTimeout(r, 0));
    expect(t.session.running).toBe(true);
    expect(t.session.streamingText).toBe('Hello there');
    expect(t.session.runningTurnId).toBe('t1');
    release();
    expect(await sent).toBe(true);
    expect(t.session.running).toBe(false);
    expect(t.session.streamingText).toBe('');
    expect(t.session.error).toBeNull();
    expect(t.ended()).toBe(1);
    expect(t.calls[0]?.[1]).toEqual({ type: 'user_message', text: 'hi' });
  });

  it('U2: the last plan is exactly the one the loop planned, and paged-in memories light up', async () => {
    const t = await setup();
    const first = plan(['m:1']);
    const second = plan(['m:1', 'p:9'], 1200);
    t.setScript(async (emit) => {
      emit({
        type: 'context.planned',
        turnId: 't1',
        step: 1,
        plan: first,
        pressure: 'ok',
        prefixCache: false,
        model: null,
      });
      emit({
        type: 'context.planned',
        turnId: 't1',
        step: 2,
        plan: second,
        pressure: 'warning',
        prefixCache: false,
        model: null,
      });
      emit({
        type: 'memory.changed',
        turnId: 't1',
        step: 2,
        changes: [{ type: 'core', label: 'human', version: 2, value: 'x' }],
      });
      return { turnId: 't1', stopReason: 'end_turn', steps: 2, replies: [] };
    });
    await t.session.send('remember this');
    expect(t.session.lastPlan).toBe(second);
    expect(t.session.pressure).toBe('warning');
    expect(t.marks).toContainEqual(['memory:p:9']);
    expect(t.marks).toContainEqual(['block:human']);
    expect(t.marks.filter((k) => k.includes('memory:m:1'))).toHaveLength(1);
  });

  it('U3: with no chat model loaded, sending says to go to Models and runs nothing', async () => {
    const t = await setup({ modelReady: false });
    expect(await t.session.send('hello')).toBe(false);
    expect(t.calls).toHaveLength(0);
    expect(t.session.error?.code).toBe('model_not_loaded');
    expect(t.session.error?.action).toContain('Models');
  });

  it('U5: stop interrupts the turn; it shows as stopped with Retry, and Retry reruns it', async () => {
    const t = await setup();
    t.setScript(
      (emit, signal) =>
        new Promise((resolve) => {
          emit({ type: 'turn.started', turnId: 't7', triggerMessageId: 'm1', at: 2 });
          signal.addEventListener('abort', () =>
            resolve({ turnId: 't7', stopReason: 'cancelled', steps: 0, replies: [] }),
          );
        }),
    );
    const sent = t.session.send('long question');
    await new Promise((r) => setTimeout(r, 0));
    t.session.stop();
    await sent;
    expect(t.session.error).toMatchObject({ code: 'cancelled', retryTurnId: 't7' });
    t.setScript(async () => ({ turnId: 't7', stopReason: 'end_turn', steps: 1, replies: ['ok'] }));
    await t.session.retry('t7');
    expect(t.calls[1]?.[1]).toEqual({ type: 'retry', turnId: 't7' });
    expect(t.session.error).toBeNull();
  });

  it('U6: a fault ends the turn with its error copy, and a busy agent says another tab runs it', async () => {
    const t = await setup();
    t.setScript(async () => ({
      turnId: 't2',
      stopReason: 'error',
      steps: 1,
      replies: [],
      error: { code: 'worker_crashed', message: 'gone' },
    }));
    await t.session.send('x');
    expect(t.session.error).toMatchObject({ code: 'worker_crashed', retryTurnId: 't2' });
    expect(t.session.error?.what).toContain('crashed');
    t.setScript(async () => ({
      turnId: null,
      stopReason: 'error',
      steps: 0,
      replies: [],
      error: { code: 'agent_busy', message: 'held' },
    }));
    // X5: nothing was stored, so send says so and the composer keeps the draft.
    expect(await t.session.send('y')).toBe(false);
    expect(t.session.error).toMatchObject({ code: 'agent_busy', retryTurnId: null });
    expect(t.session.busyElsewhere).toBe(true);
  });

  it('U4: steps of the turn in progress are listed as they happen', async () => {
    const t = await setup();
    let seen: string[] = [];
    t.setScript(async (emit) => {
      emit({
        type: 'tool.called',
        turnId: 't3',
        step: 1,
        tool: 'conversation_search',
        arguments: { query: 'birthday' },
        ok: true,
        result: 'results 1–3 of 3 (page 1 of 1) for "birthday":',
        heartbeat: true,
      });
      seen = t.session.liveSteps.map((s) => s.text);
      return { turnId: 't3', stopReason: 'end_turn', steps: 2, replies: [] };
    });
    await t.session.send('when is my birthday?');
    expect(seen).toEqual(['searched your chats for "birthday" → 3 results']);
    expect(t.session.liveSteps).toEqual([]);
  });
});

describe('ChatSession model failure (U322)', () => {
  it('reports a failed download only while no model is loaded or loading, and Retry asks for that model', () => {
    let ready = false;
    let loading = false;
    const retried: string[] = [];
    const failure = {
      modelId: 'tiny-q4',
      label: 'Tiny',
      code: 'network_unavailable',
      what: 'There is no network connection.',
      action: 'Connect and try again.',
    };
    const session = new ChatSession({
      store: new InMemoryStore(),
      search: { removeMessages: () => Promise.resolve(), indexMessages: () => Promise.resolve() },
      lock: new MemoryTurnLock(),
      run: () => Promise.reject(new Error('no turn runs here')),
      modelReady: () => ready,
      modelLoading: () => loading,
      modelFailure: () => failure,
      retryModel: (id) => retried.push(id),
    });
    expect(session.modelFailure).toEqual(failure);
    session.retryModel();
    expect(retried).toEqual(['tiny-q4']);
    loading = true;
    expect(session.modelFailure).toBeNull();
    loading = false;
    ready = true;
    expect(session.modelFailure).toBeNull();
    session.retryModel();
    expect(retried).toEqual(['tiny-q4']);
  });
});
