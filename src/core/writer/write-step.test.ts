import { describe, expect, it } from 'vitest';
import { ScriptedEngine } from '../../adapters/llm/scripted/scripted-engine';
import { AppError } from '../errors';
import type { CompletionRequest } from '../ports/llm-engine';
import { editSection } from './edit-section';
import { exportMarkdown } from './export-markdown';
import { startProject } from './start-project';
import { HUMAN_SIMULATOR_SCHEMA } from './step-schema';
import { fakeWriterDeps, stepJson, writerAgent } from './testing/fakes';
import { writeStep } from './write-step';
import { loadWriterState, writerStateKey } from './writer-persistence';

interface Reply {
  section: string;
  memory?: string;
  plans?: string[];
}

const reply = (r: Reply, n = 0): string =>
  stepJson({
    section: r.section,
    memory: r.memory ?? `Memory after step ${n}.`,
    plans: r.plans ?? [`Plan A${n}`, `Plan B${n}`, `Plan C${n}`],
  });

const userOf = (request: CompletionRequest | undefined): string =>
  request?.messages.find((m) => m.role === 'user')?.content ?? '';
const systemOf = (request: CompletionRequest | undefined): string =>
  request?.messages.find((m) => m.role === 'system')?.content ?? '';

const project = {
  genre: 'mystery',
  topic: 'a lighthouse on a cold coast',
  outline: 'Act 1: arrival.',
};

describe('writing mode', () => {
  it('G1: starting a project writes the opening section, memory and three plans, and saves them', async () => {
    const engine = new ScriptedEngine({ outputs: [reply({ section: 'Mara arrives.' }, 1)] });
    const deps = fakeWriterDeps(engine);
    const { state, step } = await startProject(deps, writerAgent(), project);
    const prompt = userOf(engine.requests[0]);
    expect(prompt).toContain('Genre: mystery');
    expect(prompt).toContain('Topic: a lighthouse on a cold coast');
    expect(prompt).toContain('Act 1: arrival.');
    expect(engine.requests[0]!.jsonSchema).toBeDefined();
    expect(state.sections.map((s) => s.text)).toEqual(['Mara arrives.']);
    expect(state.plans).toEqual(['Plan A1', 'Plan B1', 'Plan C1']);
    expect(state.shortTermMemory).toBe('Memory after step 1.');
    expect(state.lastMemoryUpdate).toEqual({ removed: 'nothing', added: 'the new section' });
    expect(step.attempts).toBe(1);
    const passage = deps.store.passages.get(step.section.id);
    expect(passage?.tags).toContain('writer');
    expect(deps.search.indexed.has(step.section.id)).toBe(true);
    expect(await loadWriterState(deps.store, state.agentId)).toEqual(state);
    expect(deps.store.settings.has(writerStateKey(state.agentId))).toBe(true);
  });

  it('G2: a picked, an edited and an own plan each reach the prompt as the plan to follow', async () => {
    const engine = new ScriptedEngine({
      rule: (_request, i) => reply({ section: `Section ${i + 1}.` }, i + 1),
    });
    const deps = fakeWriterDeps(engine);
    let { state } = await startProject(deps, writerAgent(), project);
    ({ state } = await writeStep(deps, state, { type: 'pick', index: 1 }));
    expect(userOf(engine.requests[1])).toContain('Plan for the next section:\nPlan B1');
    expect(userOf(engine.requests[1])).toContain('Last section:\nSection 1.');
    expect(userOf(engine.requests[1])).toContain('Short-term memory:\nMemory after step 1.');
    ({ state } = await writeStep(deps, state, {
      type: 'edit',
      index: 0,
      text: 'Plan A2, but at night',
    }));
    expect(userOf(engine.requests[2])).toContain(
      'Plan for the next section:\nPlan A2, but at night',
    );
    ({ state } = await writeStep(deps, state, { type: 'own', text: 'Tomas confesses.' }));
    expect(userOf(engine.requests[3])).toContain('Plan for the next section:\nTomas confesses.');
    expect(state.sections.map((s) => s.planSource)).toEqual(['start', 'pick', 'edit', 'own']);
    expect(state.sections[3]!.plan).toBe('Tomas confesses.');
    await expect(writeStep(deps, state, { type: 'pick', index: 3 })).rejects.toMatchObject({
      code: 'invalid_argument',
    });
  });

  it('G3: the plan retrieves the most similar earlier section into the prompt', async () => {
    const engine = new ScriptedEngine({
      outputs: [
        reply({ section: 'The old keeper Tomas trims the lighthouse lamp and hides a logbook.' }),
        reply({ section: 'In the village market, fishermen argue over the price of herring.' }),
        reply({ section: 'A storm breaks over the harbour and boats strain at their ropes.' }),
        reply({ section: 'Mara confronts Tomas.' }),
      ],
    });
    const deps = fakeWriterDeps(engine);
    let { state } = await startProject(deps, writerAgent(), project);
    ({ state } = await writeStep(deps, state, { type: 'own', text: 'Go to the market.' }));
    ({ state } = await writeStep(deps, state, { type: 'own', text: 'A storm comes.' }));
    const { step } = await writeStep(deps, state, {
      type: 'own',
      text: 'Mara climbs to the lighthouse to ask Tomas about the logbook.',
    });
    const prompt = userOf(engine.requests[3]);
    const related = prompt.split('Earlier passages related to the plan:\n')[1] ?? '';
    expect(related.startsWith('[1] The old keeper Tomas trims the lighthouse lamp')).toBe(true);
    // The last section is in the prompt once, as the last section, not as a passage.
    expect(prompt.split('A storm breaks over the harbour').length).toBe(2);
    expect(step.passageIds[0]).toBe(state.sections[0]!.id);
    expect(deps.search.queries.at(-1)?.text).toContain('lighthouse');
    expect(deps.search.queries.at(-1)?.kinds).toEqual(['passage']);
  });

  it('G4: a malformed answer is retried with one sentence of feedback, then accepted', async () => {
    const engine = new ScriptedEngine({
      enforceSchema: false,
      outputs: ['{"section": "half', reply({ section: 'Fine now.' })],
    });
    const deps = fakeWriterDeps(engine);
    const { step } = await startProject(deps, writerAgent(), project);
    expect(step.attempts).toBe(2);
    expect(userOf(engine.requests[1])).toContain(
      'Your previous answer was rejected: It was not valid JSON',
    );
  });

  it('G4: after the bounded retries a bad step fails with schema_violation and saves nothing', async () => {
    const twoPlans = JSON.stringify({
      section: 's',
      memory_removed: '',
      memory_added: '',
      memory: 'm',
      plan_1: 'a',
      plan_2: 'b',
    });
    const engine = new ScriptedEngine({ enforceSchema: false, rule: () => twoPlans });
    const deps = fakeWriterDeps(engine);
    const failure = await startProject(deps, writerAgent(), project, { maxAttempts: 2 }).catch(
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(AppError);
    expect((failure as AppError).code).toBe('schema_violation');
    expect((failure as AppError).message).toContain('"plan_3" must each be non-empty');
    expect(engine.requests).toHaveLength(2);
    expect(deps.store.settings.size).toBe(0);
    expect(deps.store.passages.size).toBe(0);
  });

  it('G5: an over-long memory is sent back, and clipped to its bound if it stays too long', async () => {
    const long = 'The keeper is old. '.repeat(80);
    const engine = new ScriptedEngine({
      chunkChars: 400,
      rule: () => reply({ section: 'x', memory: long }),
    });
    const deps = fakeWriterDeps(engine);
    const { state, step } = await startProject(deps, writerAgent(), project, {
      memoryMaxTokens: 60,
      maxAttempts: 2,
    });
    expect(userOf(engine.requests[1])).toContain('"memory" has');
    expect(step.output.memoryClipped).toBe(true);
    expect((await engine.tokenizer()).count(state.shortTermMemory)).toBeLessThanOrEqual(60);
    expect(state.shortTermMemory.startsWith('The keeper is old.')).toBe(true);
  });

  it('G6: long sections are trimmed so the prompt never exceeds the window minus the reply', async () => {
    const long = (word: string): string => `${word} walks along the lighthouse cliff. `.repeat(60);
    const engine = new ScriptedEngine({
      contextWindow: 2048,
      chunkChars: 400,
      rule: (_r, i) => reply({ section: long(`Person${i}`), memory: 'Short memory.' }),
    });
    const deps = fakeWriterDeps(engine);
    const options = { maxTokens: 700 };
    let { state } = await startProject(deps, writerAgent(), project, options);
    const trimmed: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const out = await writeStep(
        deps,
        state,
        { type: 'own', text: 'Back to the lighthouse cliff.' },
        options,
      );
      state = out.state;
      expect(out.step.promptTokens).toBeLessThanOrEqual(2048 - 700);
      const tokenizer = await engine.tokenizer();
      const counted = engine.requests
        .at(-1)!
        .messages.reduce((s, m) => s + tokenizer.countMessage(m.role, m.content), 0);
      expect(counted).toBe(out.step.promptTokens);
      trimmed.push(...out.step.trimmed);
    }
    expect(trimmed).toContain('passages');
    const huge = 'word '.repeat(3000);
    await expect(
      writeStep(deps, state, { type: 'own', text: huge }, options),
    ).rejects.toMatchObject({
      code: 'context_window_exceeded',
    });
  });

  it('G8: the manuscript exports as Markdown with the sections in order', async () => {
    const engine = new ScriptedEngine({
      rule: (_r, i) => reply({ section: `Paragraph ${i + 1}.` }, i + 1),
    });
    const deps = fakeWriterDeps(engine);
    let { state } = await startProject(deps, writerAgent(), project);
    ({ state } = await writeStep(deps, state, { type: 'pick', index: 0 }));
    expect(exportMarkdown(state)).toBe(
      '# The Lighthouse\n\n*mystery — a lighthouse on a cold coast*\n\nParagraph 1.\n\nParagraph 2.\n',
    );
  });

  it('G10: an edited section is re-indexed and retrieval reads the edited text', async () => {
    const engine = new ScriptedEngine({
      rule: (_r, i) => reply({ section: i === 0 ? 'A quiet morning.' : `Section ${i + 1}.` }, i),
    });
    const deps = fakeWriterDeps(engine);
    let { state } = await startProject(deps, writerAgent(), project);
    ({ state } = await writeStep(deps, state, { type: 'pick', index: 0 }));
    state = await editSection(deps, state, state.sections[0]!.id, 'Tomas buries the brass key.');
    expect(deps.search.indexed.get(state.sections[0]!.id)?.text).toBe(
      'Tomas buries the brass key.',
    );
    await writeStep(deps, state, { type: 'own', text: 'Mara digs for the brass key.' });
    expect(userOf(engine.requests.at(-1))).toContain('[1] Tomas buries the brass key.');
    expect((await loadWriterState(deps.store, state.agentId))?.sections[0]?.text).toBe(
      'Tomas buries the brass key.',
    );
  });

  it('G11: a malformed saved project is a fault', async () => {
    const deps = fakeWriterDeps(new ScriptedEngine());
    await deps.store.setSetting(writerStateKey('agent-writer'), { version: 9 });
    await expect(loadWriterState(deps.store, 'agent-writer')).rejects.toMatchObject({
      code: 'invalid_argument',
    });
    expect(await loadWriterState(deps.store, 'nobody')).toBeUndefined();
  });
});

describe('interactive fiction', () => {
  it('G9: first person, choices as actions, and a free-form action replaces the plan', async () => {
    const engine = new ScriptedEngine({
      rule: (request, i) =>
        request.jsonSchema === HUMAN_SIMULATOR_SCHEMA
          ? '{}'
          : reply(
              {
                section: `I step forward (${i + 1}).`,
                plans: ['I open the cellar door.', 'I call out.', 'I run back upstairs.'],
              },
              i,
            ),
    });
    const deps = fakeWriterDeps(engine);
    let { state } = await startProject(deps, writerAgent('fiction'), {
      genre: 'horror',
      topic: 'a farmhouse cellar',
      opening: 'I hear scratching below.',
    });
    expect(state.mode).toBe('fiction');
    expect(systemOf(engine.requests[0])).toContain('first person');
    expect(systemOf(engine.requests[0])).toContain(
      'three different choices for what I could do next',
    );
    expect(userOf(engine.requests[0])).toContain('Start from: I hear scratching below.');
    ({ state } = await writeStep(deps, state, {
      type: 'action',
      text: 'I light a match and listen.',
    }));
    expect(userOf(engine.requests[1])).toContain('What I do next:\nI light a match and listen.');
    expect(state.sections[1]!.planSource).toBe('action');
    expect(exportMarkdown(state)).toContain('> I light a match and listen.\n\nI step forward (2).');

    const writer = await startProject(fakeWriterDeps(engine), writerAgent('writer'), project);
    await expect(
      writeStep(deps, writer.state, { type: 'action', text: 'I jump.' }),
    ).rejects.toMatchObject({ code: 'invalid_argument' });
  });

  it('G1: a companion agent is not a writing project', async () => {
    const agent = { ...writerAgent(), kind: 'companion' as const };
    await expect(
      startProject(fakeWriterDeps(new ScriptedEngine()), agent, project),
    ).rejects.toMatchObject({ code: 'invalid_argument' });
  });
});
