import { describe, expect, it } from 'vitest';
import { createAgentFixture, reply } from '../../testing/agent-fixture';
import type { MemorySearch } from '../ports/memory-search';
import { CANCELLED, orCancelled } from './or-cancelled';
import { runTurn } from './run-turn';

describe('a Stop while the turn is starting (A5)', () => {
  it('orCancelled gives the work’s value, or CANCELLED as soon as the signal aborts', async () => {
    expect(await orCancelled(Promise.resolve(3), undefined)).toBe(3);
    const controller = new AbortController();
    expect(await orCancelled(Promise.resolve('done'), controller.signal)).toBe('done');
    const never = new Promise<number>(() => undefined);
    const waiting = orCancelled(never, controller.signal);
    controller.abort();
    expect(await waiting).toBe(CANCELLED);
    expect(await orCancelled(Promise.reject(new Error('late')), controller.signal)).toBe(CANCELLED);
    await expect(orCancelled(Promise.reject(new Error('boom')), undefined)).rejects.toThrow('boom');
  });

  it('A5: a turn stopped while recall waits on a stuck embed worker ends cancelled at once', async () => {
    const fx = await createAgentFixture({ rule: () => reply('Hi!') });
    let searches = 0;
    // The fixture's search with a recall search that never answers (a stuck embed worker).
    const stuck = Object.assign(Object.create(fx.search) as MemorySearch, {
      search: () => {
        searches += 1;
        return new Promise<never>(() => undefined);
      },
      searchMany: undefined,
    });
    const controller = new AbortController();
    const outcome = runTurn(
      { ...fx.deps, search: stuck },
      fx.agent.id,
      { type: 'user_message', text: 'What is my cat called?' },
      {
        signal: controller.signal,
        onEvent: (e) => {
          if (e.type === 'turn.started') setTimeout(() => controller.abort(), 0);
        },
      },
    );
    const ended = await outcome;
    expect(ended.stopReason, ended.error?.message).toBe('cancelled');
    expect(searches).toBeGreaterThan(0);
    expect(fx.engine.requests).toHaveLength(0);
  });
});
