import { describe, expect, it } from 'vitest';
import { ScriptedEngine } from '../../adapters/llm/scripted/scripted-engine';
import { HUMAN_SIMULATOR_SCHEMA } from './step-schema';
import { fakeWriterDeps, stepJson, writerAgent } from './testing/fakes';
import { WriterSession } from './writer-session';

const engine = () =>
  new ScriptedEngine({
    rule: (request, i) =>
      request.jsonSchema === HUMAN_SIMULATOR_SCHEMA
        ? JSON.stringify({ choice: 1, reason: 'r', plan: 'Simulated plan.' })
        : stepJson({
            section: `Section ${i}.`,
            memory: `Memory ${i}.`,
            plans: [`A${i}`, `B${i}`, `C${i}`],
          }),
  });

describe('WriterSession', () => {
  it('G11: a session survives reopening: start, step, edits, autonomous, export', async () => {
    const deps = fakeWriterDeps(engine());
    const changes: number[] = [];
    const session = await WriterSession.open(deps, writerAgent(), {
      onChange: (s) => changes.push(s.sections.length),
    });
    expect(session.state).toBeNull();
    await session.start({ genre: 'fable', topic: 'a fox and a well' });
    await session.step({ type: 'pick', index: 2 });
    await session.setShortTermMemory('The fox is thirsty.');
    await session.setPlan(0, 'The fox meets a goat.');
    const run = await session.autonomous(2);
    expect(run.steps).toHaveLength(2);
    expect(changes).toEqual([1, 2, 2, 2, 3, 4]);

    const reopened = await WriterSession.open(deps, writerAgent());
    expect(reopened.state).toEqual(session.state);
    expect(reopened.state?.sections.map((s) => s.plan)).toEqual([
      '',
      'C0',
      'Simulated plan.',
      'Simulated plan.',
    ]);
    expect(reopened.exportMarkdown()).toContain('Section 0.\n\nSection 1.');
  });

  it('G11: a second operation while one runs is refused with agent_busy', async () => {
    const deps = fakeWriterDeps(engine());
    const session = await WriterSession.open(deps, writerAgent());
    await session.start({ genre: 'fable', topic: 'a fox' });
    const first = session.step({ type: 'pick', index: 0 });
    await expect(session.step({ type: 'pick', index: 1 })).rejects.toMatchObject({
      code: 'agent_busy',
    });
    await first;
    expect(session.state?.sections).toHaveLength(2);
  });
});
