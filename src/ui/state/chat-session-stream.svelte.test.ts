/**
 * Issue 34 in the chat's state: a streamed reply is shown at most once per frame however many
 * pieces arrive (U290), and a model server's own words appear in the notice that points to them
 * (U291).
 */
import { describe, expect, it } from 'vitest';
import { createAgentRecord } from '../../core/agent/create-agent-record';
import type { TurnEvent, TurnOutcome } from '../../core/agent/turn-events';
import { InMemoryStore } from '../../testing/in-memory-store';
import { MemoryTurnLock } from '../../testing/memory-turn-lock';
import { ChatSession } from './chat-session.svelte';

type Script = (emit: (e: TurnEvent) => void) => Promise<TurnOutcome>;

async function setup(script: Script) {
  const store = new InMemoryStore();
  await store.apply(createAgentRecord({ id: 'a1', name: 'Ada', now: 1 }).changes);
  const frames: (() => void)[] = [];
  const session = new ChatSession({
    store,
    search: { removeMessages: () => Promise.resolve(), indexMessages: () => Promise.resolve() },
    lock: new MemoryTurnLock(),
    modelReady: () => true,
    run: (_agentId, _trigger, opts) => script(opts.onEvent),
    nextFrame: (callback) => void frames.push(callback),
  });
  await session.open('a1');
  const runFrame = () => {
    for (const callback of frames.splice(0)) callback();
  };
  return { session, frames, runFrame };
}

describe('ChatSession streaming (issue 34)', () => {
  it('U290: a thousand pieces within one frame render once, with the newest text', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const t = await setup(async (emit) => {
      emit({ type: 'turn.started', turnId: 't1', triggerMessageId: 'm1', at: 2 });
      let text = '';
      for (let i = 0; i < 1000; i += 1) {
        text += `${i} `;
        emit({ type: 'message.streamed', turnId: 't1', step: 1, text, done: false });
      }
      await gate;
      return { turnId: 't1', stopReason: 'end_turn', steps: 1, replies: [text] };
    });
    const sent = t.session.send('hi');
    await new Promise((r) => setTimeout(r, 0));
    // Nothing is drawn before the frame, and one frame was asked for, not a thousand.
    expect(t.session.streamingText).toBe('');
    expect(t.frames).toHaveLength(1);
    t.runFrame();
    expect(t.session.streamingText.endsWith('999 ')).toBe(true);
    release();
    await sent;
    expect(t.session.streamingText).toBe('');
  });

  it('U290: a frame that comes after the turn ended does not bring the text back', async () => {
    const t = await setup(async (emit) => {
      emit({ type: 'message.streamed', turnId: 't1', step: 1, text: 'half a rep', done: false });
      return { turnId: 't1', stopReason: 'cancelled', steps: 0, replies: [] };
    });
    await t.session.send('hi');
    t.runFrame();
    expect(t.session.streamingText).toBe('');
    expect(t.session.running).toBe(false);
  });

  it('U291: the server’s message appears below the notice that says to read it', async () => {
    const said = 'The model server failed (HTTP 500). The server said: “CUDA out of memory”';
    const t = await setup(async () => ({
      turnId: 't2',
      stopReason: 'error',
      steps: 0,
      replies: [],
      error: { code: 'endpoint_failed', message: said },
    }));
    await t.session.send('x');
    expect(t.session.error?.action).toContain('message below');
    expect(t.session.error?.detail).toBe(said);
  });

  it('U291: a stalled server’s notice names the server; other faults add no detail', async () => {
    const t = await setup(async () => ({
      turnId: 't3',
      stopReason: 'error',
      steps: 0,
      replies: [],
      error: {
        code: 'endpoint_stalled',
        message: `The model server at http://127.0.0.1:1 sent nothing for 120 seconds. ${'x'.repeat(5000)}`,
      },
    }));
    await t.session.send('x');
    expect(t.session.error?.detail).toContain('http://127.0.0.1:1');
    expect(t.session.error?.detail?.length).toBeLessThanOrEqual(600);
    const other = await setup(async () => ({
      turnId: 't4',
      stopReason: 'error',
      steps: 0,
      replies: [],
      error: { code: 'worker_crashed', message: 'Error: stack at foo.js:1' },
    }));
    await other.session.send('x');
    expect(other.session.error?.detail).toBeUndefined();
  });
});
