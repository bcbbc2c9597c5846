import { describe, expect, it } from 'vitest';
import { ScriptedEngine } from '../../adapters/llm/scripted/scripted-engine';
import type { CompletionRequest } from '../ports/llm-engine';
import { runAutonomous } from './run-autonomous';
import { simulateHuman } from './simulate-human';
import { startProject } from './start-project';
import { HUMAN_SIMULATOR_SCHEMA } from './step-schema';
import { fakeWriterDeps, stepJson, writerAgent } from './testing/fakes';

const userOf = (request: CompletionRequest | undefined): string =>
  request?.messages.find((m) => m.role === 'user')?.content ?? '';

/** Writes "Section n" with plans "Plan X<n>"; the simulator always picks plan 2 and sharpens it. */
function engine(options: { failSimulatorOnce?: boolean } = {}) {
  let steps = 0;
  let simulatorFailed = false;
  return new ScriptedEngine({
    enforceSchema: options.failSimulatorOnce !== true,
    rule: (request) => {
      if (request.jsonSchema === HUMAN_SIMULATOR_SCHEMA) {
        if (options.failSimulatorOnce && !simulatorFailed) {
          simulatorFailed = true;
          return '{"choice": 4, "reason": "", "plan": "x"}';
        }
        const second = /\n2\. (.*)/.exec(userOf(request))?.[1] ?? '';
        return JSON.stringify({ choice: 2, reason: 'More tension.', plan: `${second}, sharpened` });
      }
      steps += 1;
      return stepJson({
        section: `Section ${steps}.`,
        memory: `Memory ${steps}.`,
        plans: [`Plan A${steps}`, `Plan B${steps}`, `Plan C${steps}`],
      });
    },
  });
}

const project = { genre: 'fantasy', topic: 'a dragon who fears heights' };

describe('autonomous mode', () => {
  it('G7: the human simulator picks and revises a plan each step, for n steps', async () => {
    const llm = engine();
    const deps = fakeWriterDeps(llm);
    const { state } = await startProject(deps, writerAgent(), project);
    const seen: number[] = [];
    const run = await runAutonomous(deps, state, 3, {
      onStep: (_s, st) => seen.push(st.sections.length),
    });
    expect(run.stopped).toBe('done');
    expect(run.steps).toHaveLength(3);
    expect(seen).toEqual([2, 3, 4]);
    expect(run.state.sections.map((s) => s.plan)).toEqual([
      '',
      'Plan B1, sharpened',
      'Plan B2, sharpened',
      'Plan B3, sharpened',
    ]);
    expect(run.steps[0]!.simulated.choice).toEqual({
      type: 'edit',
      index: 1,
      text: 'Plan B1, sharpened',
    });
    // The simulator saw the three plans; the writer then got the revised plan.
    const simulatorPrompt = userOf(llm.requests[1]);
    expect(simulatorPrompt).toContain('1. Plan A1\n2. Plan B1\n3. Plan C1');
    expect(userOf(llm.requests[2])).toContain('Plan for the next section:\nPlan B1, sharpened');
  });

  it('G7: a simulator answer outside 1–3 is retried', async () => {
    const llm = engine({ failSimulatorOnce: true });
    const deps = fakeWriterDeps(llm);
    const { state } = await startProject(deps, writerAgent(), project);
    const simulated = await simulateHuman(deps, state);
    expect(simulated.attempts).toBe(2);
    expect(userOf(llm.requests[2])).toContain('"choice" must be 1, 2 or 3.');
  });

  it('G7: stopping keeps the finished steps and reports cancelled', async () => {
    const llm = engine();
    const deps = fakeWriterDeps(llm);
    const { state } = await startProject(deps, writerAgent(), project);
    const controller = new AbortController();
    const run = await runAutonomous(deps, state, 5, {
      signal: controller.signal,
      onStep: (_s, st) => {
        if (st.sections.length === 3) controller.abort();
      },
    });
    expect(run.stopped).toBe('cancelled');
    expect(run.state.sections).toHaveLength(3);
  });

  it('G7: stopping mid-generation keeps the state of the last finished step', async () => {
    const llm = engine();
    const deps = fakeWriterDeps(llm);
    const { state } = await startProject(deps, writerAgent(), project);
    const controller = new AbortController();
    let deltas = 0;
    const run = await runAutonomous(deps, state, 5, {
      signal: controller.signal,
      onDelta: () => {
        deltas += 1;
        if (deltas === 3) controller.abort();
      },
    });
    expect(run.stopped).toBe('cancelled');
    expect(run.state.sections).toHaveLength(1);
  });
});
