import { describe, expect, it } from 'vitest';
import { ScriptedEngine } from '../../adapters/llm/scripted/scripted-engine';
import { HUMAN_SIMULATOR_SCHEMA } from '../../core/writer/step-schema';
import { fakeWriterDeps, stepJson, writerAgent } from '../../core/writer/testing/fakes';
import { WriterView } from './writer.svelte';

const long = (label: string) =>
  Array.from({ length: 60 }, (_, i) => `${label} sentence ${i + 1}.`).join(' ');

function setup(kind: 'writer' | 'fiction' = 'writer', options: { ready?: boolean } = {}) {
  let simulated = 0;
  const engine = new ScriptedEngine({
    chunkChars: 8,
    rule: (request, i) => {
      if (request.jsonSchema === HUMAN_SIMULATOR_SCHEMA) {
        simulated += 1;
        return JSON.stringify({
          choice: 2,
          reason: `Reason ${simulated}.`,
          plan: `Revised plan ${simulated}.`,
        });
      }
      return stepJson({
        section: i === 0 ? long('Opening') : `Section ${i} text.`,
        memory: `Memory ${i}.`,
        removed: `old ${i}`,
        added: `new ${i}`,
        plans: [`A${i} the lighthouse`, `B${i} the storm`, `C${i} the boat`],
      });
    },
  });
  const deps = fakeWriterDeps(engine);
  const loaded: string[] = [];
  const ready = { value: options.ready ?? true };
  const view = new WriterView({
    writer: deps,
    search: { agentId: null, loadAgent: async (id) => void loaded.push(id) },
    modelReady: () => ready.value,
  });
  return { view, deps, loaded, ready, agent: writerAgent(kind) };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('WriterView', () => {
  it('U101/U109: start streams the opening as text, then shows the section, memory and three plans', async () => {
    const { view, agent, loaded } = setup();
    await view.open(agent);
    expect(view.state).toBeNull();
    const seen: string[] = [];
    const started = view.start({ genre: 'mystery', topic: 'a lighthouse' });
    while (view.running) {
      if (view.streaming) seen.push(view.streaming);
      await tick();
    }
    expect(await started).toBe(true);
    expect(loaded).toEqual([agent.id]);
    expect(seen.length).toBeGreaterThan(1);
    expect(seen[0]).toMatch(/^Opening/);
    expect(seen.some((s) => s.length < long('Opening').length)).toBe(true);
    expect(view.state?.sections.map((s) => s.text)).toEqual([long('Opening')]);
    expect(view.state?.plans).toHaveLength(3);
    expect(view.state?.lastMemoryUpdate).toEqual({ removed: 'old 0', added: 'new 0' });
    expect(view.streaming).toBeNull();
  });

  it('U100: without a loaded model a step is refused with a sentence and nothing is called', async () => {
    const { view, agent, deps } = setup('writer', { ready: false });
    await view.open(agent);
    expect(await view.start({ genre: 'mystery', topic: 'a lighthouse' })).toBe(false);
    expect(view.problem?.what).toBe('No writing model is loaded.');
    expect(deps.store.passages.size).toBe(0);
  });

  it('U103/U104/U105: pick, edit and own plans each write a section that records its plan', async () => {
    const { view, agent } = setup();
    await view.open(agent);
    await view.start({ genre: 'mystery', topic: 'a lighthouse' });
    expect(await view.step({ type: 'pick', index: 1 })).toBe(true);
    expect(view.notice).toBe('Section 2 written.');
    expect(await view.step({ type: 'edit', index: 0, text: 'The keeper finds a letter.' })).toBe(
      true,
    );
    expect(await view.step({ type: 'own', text: 'A storm breaks the lamp.' })).toBe(true);
    expect(view.state?.sections.slice(1).map((s) => [s.planSource, s.plan])).toEqual([
      ['pick', 'B0 the storm'],
      ['edit', 'The keeper finds a letter.'],
      ['own', 'A storm breaks the lamp.'],
    ]);
    // The last step searched the earlier sections with its plan; the screen lists what it saw.
    expect(view.lastStep?.section.plan).toBe('A storm breaks the lamp.');
    expect(view.retrieved.every((s) => view.state!.sections.includes(s))).toBe(true);
    expect(await view.step({ type: 'own', text: '   ' })).toBe(false);
    expect(view.problem?.what).toBe('The plan is empty.');
  });

  it('U104/U106: a saved plan edit and a memory edit persist without writing', async () => {
    const { view, agent, deps } = setup();
    await view.open(agent);
    await view.start({ genre: 'mystery', topic: 'a lighthouse' });
    expect(await view.setPlan(2, 'The boat is gone.')).toBe(true);
    expect(await view.setShortTermMemory('The keeper is alone.')).toBe(true);
    const reopened = setup();
    const again = new WriterView({
      writer: deps,
      search: { loadAgent: async () => undefined },
      modelReady: () => true,
    });
    await again.open(reopened.agent);
    expect(again.state?.plans[2]).toBe('The boat is gone.');
    expect(again.state?.shortTermMemory).toBe('The keeper is alone.');
    expect(again.state?.sections).toHaveLength(1);
  });

  it('U107: autonomous steps log the plan the simulator picked and its revision', async () => {
    const { view, agent } = setup();
    await view.open(agent);
    await view.start({ genre: 'mystery', topic: 'a lighthouse' });
    expect(await view.autonomous(2)).toBe(true);
    expect(view.autonomousLog.map((e) => [e.index, e.original, e.revised, e.reason])).toEqual([
      [1, 'B0 the storm', 'Revised plan 1.', 'Reason 1.'],
      [1, 'B2 the storm', 'Revised plan 2.', 'Reason 2.'],
    ]);
    expect(view.progress).toEqual({ done: 2, total: 2 });
    expect(view.state?.sections.map((s) => s.plan).slice(1)).toEqual([
      'Revised plan 1.',
      'Revised plan 2.',
    ]);
    expect(view.notice).toBe('Wrote 2 sections on its own.');
  });

  it('U109: Stop during a streaming step saves nothing and says so', async () => {
    const { view, agent, deps } = setup();
    await view.open(agent);
    const started = view.start({ genre: 'mystery', topic: 'a lighthouse' });
    while (view.streaming === null) await tick();
    view.stop();
    expect(await started).toBe(false);
    expect(view.state).toBeNull();
    expect(deps.store.passages.size).toBe(0);
    expect(view.notice).toBe('Stopped; the section in progress was not saved.');
    expect(view.running).toBe(false);
  });

  it('U107/U109: Stop during autonomous mode keeps the finished steps and says how many', async () => {
    const { view, agent } = setup();
    await view.open(agent);
    await view.start({ genre: 'mystery', topic: 'a lighthouse' });
    const run = view.autonomous(3);
    while (view.autonomousLog.length === 0) await tick();
    view.stop();
    expect(await run).toBe(true);
    expect(view.state?.sections).toHaveLength(1 + view.autonomousLog.length);
    expect(view.autonomousLog.length).toBeLessThan(3);
    expect(view.notice).toBe(
      `Stopped after ${view.autonomousLog.length} of 3 steps; the finished ones are kept.`,
    );
  });

  it('U108: the export is the manuscript as Markdown under a file name from the title', async () => {
    const { view, agent } = setup();
    await view.open(agent);
    await view.start({ genre: 'mystery', topic: 'a lighthouse' });
    await view.step({ type: 'pick', index: 0 });
    const file = view.exportFile();
    expect(file.filename).toBe('the-lighthouse.md');
    expect(file.text).toContain('# The Lighthouse');
    expect(file.text).toContain(`${long('Opening')}\n\nSection`);
  });

  it('U110: fiction takes a free-form action of the protagonist', async () => {
    const { view, agent } = setup('fiction');
    await view.open(agent);
    await view.start({ genre: 'gothic', topic: 'I wake in a cellar' });
    expect(await view.step({ type: 'action', text: 'I shout for help.' })).toBe(true);
    expect(view.state?.sections[1]).toMatchObject({
      planSource: 'action',
      plan: 'I shout for help.',
    });
  });

  it('U102: editing a section rewrites it in the manuscript', async () => {
    const { view, agent, deps } = setup();
    await view.open(agent);
    await view.start({ genre: 'mystery', topic: 'a lighthouse' });
    const id = view.state!.sections[0]!.id;
    expect(await view.editSection(id, 'A new opening.')).toBe(true);
    expect(view.state?.sections[0]?.text).toBe('A new opening.');
    expect(deps.store.passages.get(id)?.text).toBe('A new opening.');
  });

  it('U113: a choice made on a project another tab has changed is not run; the latest shows', async () => {
    const a = setup();
    await a.view.open(a.agent);
    await a.view.start({ genre: 'mystery', topic: 'a lighthouse' });
    const b = new WriterView({
      writer: a.deps,
      search: { loadAgent: async () => undefined },
      modelReady: () => true,
    });
    await b.open(a.agent);
    await a.view.step({ type: 'pick', index: 0 });
    expect(await b.step({ type: 'pick', index: 2 })).toBe(false);
    expect(b.problem?.what).toBe('This project changed in another tab.');
    expect(b.state?.sections).toEqual(a.view.state?.sections);
    expect(await b.step({ type: 'pick', index: 2 })).toBe(true);
    expect(b.state?.sections).toHaveLength(3);
  });

  it('U113: while another tab holds the project lock nothing runs and the screen says so', async () => {
    const { deps, agent } = setup();
    const released: string[] = [];
    let free = false;
    const view = new WriterView({
      writer: deps,
      search: { loadAgent: async () => undefined },
      modelReady: () => true,
      lock: {
        acquire: async (id) => (free ? () => void released.push(id) : null),
      },
    });
    await view.open(agent);
    expect(await view.start({ genre: 'mystery', topic: 'a lighthouse' })).toBe(false);
    expect(view.problem?.what).toBe('This project is being written in another tab.');
    expect(deps.store.passages.size).toBe(0);
    free = true;
    expect(await view.start({ genre: 'mystery', topic: 'a lighthouse' })).toBe(true);
    expect(released).toEqual([agent.id]);
  });
});
