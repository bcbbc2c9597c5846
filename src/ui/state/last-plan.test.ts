import { describe, expect, it } from 'vitest';
import type { ContextPlan } from '../../core/context/plan-context';
import { InMemoryStore } from '../../testing/in-memory-store';
import { keepLastPlan, lastPlanKey, readLastPlan, restoredPlan } from './last-plan';

const plan: ContextPlan = {
  strategy: 'memgpt',
  window: 4096,
  total: 900,
  sections: {
    system: 300,
    tools: 300,
    core: 50,
    summary: 0,
    memories: 0,
    messages: 38,
    reserve: 512,
  },
  messages: [{ id: 'm1', seq: 1, role: 'user', tokens: 12 }],
  messageIds: ['m1'],
  overflowIds: [],
  evictableIds: [],
  memories: [],
  demand: 900,
  prompt: [{ role: 'user', content: 'a long prompt text' }],
  strategyState: { kept: {} },
};

describe('the last plan of a conversation (U293)', () => {
  it('U293: is kept under the conversation of the turn, without its prompt, and read back', async () => {
    const store = new InMemoryStore();
    await store.apply({
      messages: [
        {
          id: 'm1',
          agentId: 'a1',
          conversationId: 'a1:c2',
          role: 'user',
          text: 'Hi',
          at: 1,
          inContext: true,
          tokens: 3,
        },
      ],
    });
    await keepLastPlan(store, 'a1', 'm1', plan);
    const stored = await store.getSetting<Record<string, unknown>>(lastPlanKey('a1', 'a1:c2'));
    expect(stored?.prompt).toBeUndefined();
    expect(stored?.strategyState).toBeUndefined();
    const back = await readLastPlan(store, 'a1', 'a1:c2');
    expect(back?.total).toBe(900);
    expect(back?.sections.messages).toBe(38);
    expect(back?.prompt).toEqual([]);
    expect(await readLastPlan(store, 'a1', 'a1:c3')).toBeNull();
  });

  it('U293: anything that is not a stored plan is ignored', () => {
    expect(restoredPlan(undefined)).toBeNull();
    expect(restoredPlan({ window: 4096 })).toBeNull();
    expect(restoredPlan('plan')).toBeNull();
  });
});
