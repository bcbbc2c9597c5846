import { describe, expect, it } from 'vitest';
import { createAgentRecord } from '../../core/agent/create-agent-record';
import { InMemoryStore } from '../../testing/in-memory-store';
import { AgentsState } from './agents.svelte';

function setup() {
  const store = new InMemoryStore();
  let n = 0;
  let t = 100;
  const agents = new AgentsState({
    store,
    clock: { now: () => (t += 1) },
    newId: () => `agent-${(n += 1)}`,
  });
  return { store, agents };
}

describe('AgentsState', () => {
  it('U283: an agent keeps the model it uses (Agent.modelId); null means whichever is loaded', async () => {
    const { store, agents } = setup();
    await agents.start();
    const a = await agents.create({ name: 'Ada', kind: 'companion', persona: '' });
    expect(a.modelId).toBeNull();
    await agents.setModel(a.id, 'server:llama3.1:8b');
    expect((await store.getAgent(a.id))?.modelId).toBe('server:llama3.1:8b');
    expect(agents.list.find((x) => x.id === a.id)?.modelId).toBe('server:llama3.1:8b');
    await agents.setModel(a.id, null);
    expect((await store.getAgent(a.id))?.modelId).toBeNull();
  });

  it('U10: creating an agent stores it with its core blocks and makes it active', async () => {
    const { store, agents } = setup();
    await agents.start();
    const a = await agents.create({
      name: '  Ada  ',
      kind: 'notebook',
      persona: 'A careful reader.',
    });
    expect(a.name).toBe('Ada');
    expect(agents.activeId).toBe(a.id);
    expect((await store.getAgent(a.id))?.kind).toBe('notebook');
    const blocks = await store.listBlocks(a.id);
    expect(blocks.map((b) => b.label).sort()).toEqual(['human', 'persona']);
    expect(blocks.find((b) => b.label === 'persona')?.value).toBe('A careful reader.');
    await expect(agents.create({ name: '   ', kind: 'companion' })).rejects.toMatchObject({
      code: 'invalid_argument',
    });
  });

  it('U11: rename and persona edits persist; the persona edit is an undoable user version', async () => {
    const { store, agents } = setup();
    await agents.start();
    const a = await agents.create({ name: 'Ada', kind: 'companion' });
    await agents.rename(a.id, 'Grace');
    expect((await store.getAgent(a.id))?.name).toBe('Grace');
    expect(agents.active?.name).toBe('Grace');
    await agents.setPersona(a.id, 'Speaks briefly.');
    const block = await store.getBlock(a.id, 'persona');
    expect(block).toMatchObject({ value: 'Speaks briefly.', version: 2 });
    const history = await store.blockHistory(a.id, 'persona');
    expect(history.at(-1)?.source).toEqual({ type: 'user' });
    await expect(agents.setPersona(a.id, 'x'.repeat(5000))).rejects.toMatchObject({
      code: 'invalid_argument',
    });
  });

  it('U12: deleting the active agent removes everything it owns and activates another', async () => {
    const { store, agents } = setup();
    await agents.start();
    const a = await agents.create({ name: 'One', kind: 'companion' });
    const b = await agents.create({ name: 'Two', kind: 'writer' });
    expect(agents.activeId).toBe(b.id);
    await agents.remove(b.id);
    expect(await store.getAgent(b.id)).toBeUndefined();
    expect(await store.listBlocks(b.id)).toEqual([]);
    expect(agents.activeId).toBe(a.id);
    expect(agents.list.map((x) => x.name)).toEqual(['One']);
  });

  it('U13: the active agent is restored on the next start', async () => {
    const { store, agents } = setup();
    await agents.start();
    await agents.create({ name: 'One', kind: 'companion' });
    const b = await agents.create({ name: 'Two', kind: 'companion' });
    const again = new AgentsState({ store, clock: { now: () => 1 }, newId: () => 'x' });
    await again.start();
    expect(again.activeId).toBe(b.id);
  });

  it('V14: the temporary agent of a memory check is never listed or made active', async () => {
    const { store, agents } = setup();
    const temp = createAgentRecord({ id: 'memory-check-1', name: 'Memory check', now: 1 });
    await store.apply(temp.changes);
    await agents.start();
    expect(agents.list).toEqual([]);
    expect(agents.activeId).toBeNull();
    const a = await agents.create({ name: 'Ada', kind: 'companion' });
    expect(agents.list.map((x) => x.id)).toEqual([a.id]);
  });
});
