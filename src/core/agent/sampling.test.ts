import { describe, expect, it } from 'vitest';
import { createAgentFixture, reply, step } from '../../testing/agent-fixture';
import { runTurn } from './run-turn';
import { DEFAULT_SAMPLING } from './sampling';

const stepSampling = (requests: { jsonSchema?: unknown; temperature?: number; topP?: number }[]) =>
  requests.filter((r) => r.jsonSchema).map((r) => [r.temperature, r.topP]);

describe('sampling settings per agent (E53, ADR 0156)', () => {
  it('E53: an agent without settings sends the defaults with every step', async () => {
    const fx = await createAgentFixture({
      outputs: [step('core_memory_append', { label: 'human', content: 'Ana.' }, true), reply('Hi')],
    });
    expect(fx.agent.sampling).toBeUndefined();
    await runTurn(fx.deps, fx.agent.id, { type: 'user_message', text: 'I am Ana' });
    expect(stepSampling(fx.engine.requests)).toEqual([
      [DEFAULT_SAMPLING.temperature, DEFAULT_SAMPLING.topP],
      [DEFAULT_SAMPLING.temperature, DEFAULT_SAMPLING.topP],
    ]);
  });

  it("E53 E27: the agent's own settings go with every step of every turn, unchanged", async () => {
    const fx = await createAgentFixture({
      outputs: [
        step('core_memory_append', { label: 'human', content: 'Ana.' }, true),
        reply('Noted.'),
        reply('Again.'),
      ],
    });
    await fx.store.apply({ agents: [{ ...fx.agent, sampling: { temperature: 0.2, topP: 0.5 } }] });
    await runTurn(fx.deps, fx.agent.id, { type: 'user_message', text: 'I am Ana' });
    await runTurn(fx.deps, fx.agent.id, { type: 'user_message', text: 'And again' });
    expect(stepSampling(fx.engine.requests)).toEqual([
      [0.2, 0.5],
      [0.2, 0.5],
      [0.2, 0.5],
    ]);
  });

  it('E53: a change saved between turns is used from the next turn on', async () => {
    const fx = await createAgentFixture({ outputs: [reply('One.'), reply('Two.')] });
    await runTurn(fx.deps, fx.agent.id, { type: 'user_message', text: 'one' });
    await fx.store.apply({ agents: [{ ...fx.agent, sampling: { temperature: 0, topP: 1 } }] });
    await runTurn(fx.deps, fx.agent.id, { type: 'user_message', text: 'two' });
    expect(stepSampling(fx.engine.requests)).toEqual([
      [DEFAULT_SAMPLING.temperature, DEFAULT_SAMPLING.topP],
      [0, 1],
    ]);
  });
});
