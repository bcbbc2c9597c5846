import { describe, expect, it } from 'vitest';
import { createAgentRecord } from './create-agent-record';

describe('createAgentRecord', () => {
  it('U154: a new agent introduces itself by its own name in its default persona', () => {
    const { agent, changes } = createAgentRecord({ id: 'a1', name: 'Juniper', now: 1 });
    expect(agent.persona).toMatch(/^I am Juniper, /);
    expect(agent.persona).not.toContain('Loci');
    expect(changes.blocks?.find((b) => b.block.label === 'persona')?.block.value).toBe(
      agent.persona,
    );
  });

  it('U154: a persona the user wrote is kept as written', () => {
    const { agent } = createAgentRecord({ id: 'a1', name: 'Juniper', now: 1, persona: 'A poet.' });
    expect(agent.persona).toBe('A poet.');
  });
});
