/**
 * Helpers for the real-engine e2e tests: the fixture GGUF model on real llama.cpp (wllama in the
 * LLM worker, downloaded from the app's own origin). No scripted engine is involved.
 */
import type { Page } from '@playwright/test';
import { buildStepSchema } from '../../../src/core/agent/step-schema';
import {
  STEP_MAX_TOKENS_CAP,
  STEP_RESERVE_MULTIPLE,
} from '../../../src/core/agent/step-max-tokens';
import { createToolRegistry } from '../../../src/core/tools/tool-registry';
import type { CoreBlock, StepRecord, TurnRecord } from '../../../src/core/model';
import { checkJsonSchema } from '../../../src/adapters/llm/scripted/check-json-schema';

export const FIXTURE_MODEL = 'loci-fixture-llama';

interface RealWindow {
  __loci: {
    loadModel(modelId?: string): Promise<boolean>;
    plans: { step: number; prompt: number }[];
    completions: { constrained: boolean; promptTokens?: number; cachedTokens?: number }[];
    store: {
      listTurns(agentId: string): Promise<TurnRecord[]>;
      listSteps(turnId: string): Promise<StepRecord[]>;
      listBlocks(agentId: string): Promise<CoreBlock[]>;
      queryMessages(agentId: string): Promise<{ role: string; text: string }[]>;
    };
  };
}

/** Loads the fixture GGUF model through the real wllama path, as a download would. */
export async function loadFixtureModel(page: Page): Promise<void> {
  await page.waitForFunction(() => (window as unknown as Partial<RealWindow>).__loci !== undefined);
  const ok = await page.evaluate(
    (id) => (window as unknown as RealWindow).__loci.loadModel(id),
    FIXTURE_MODEL,
  );
  if (!ok) throw new Error('the fixture GGUF model did not load');
}

/** Every turn of an agent, with its steps. */
export async function turnsWithSteps(
  page: Page,
  agentId: string,
): Promise<{ turn: TurnRecord; steps: StepRecord[] }[]> {
  return page.evaluate(async (id) => {
    const store = (window as unknown as RealWindow).__loci.store;
    const turns = await store.listTurns(id);
    return Promise.all(
      turns.map(async (turn) => ({ turn, steps: await store.listSteps(turn.id) })),
    );
  }, agentId);
}

/** Steps whose raw output is not valid JSON for the step schema (what reached the parser). */
export async function malformedSteps(
  page: Page,
  agentId: string,
  replyReserve = RANDOM_REPLY_RESERVE,
): Promise<string[]> {
  const blocks = await page.evaluate(
    (id) => (window as unknown as RealWindow).__loci.store.listBlocks(id),
    agentId,
  );
  // A step is sampled under the schema of its own `max_tokens` (A40, ADR 0198): from the reserve
  // up to the cap below, and the reply's length bound grows with it. Checked against the widest
  // of those schemas, a long reply a step was allowed is not reported as malformed; the shape
  // (fields, function names, argument types) is checked exactly.
  const widest = Math.min(STEP_MAX_TOKENS_CAP, STEP_RESERVE_MULTIPLE * replyReserve);
  const schema = buildStepSchema(createToolRegistry().specs(blocks), widest);
  const bad: string[] = [];
  for (const { steps } of await turnsWithSteps(page, agentId)) {
    for (const step of steps) {
      let value: unknown;
      try {
        value = JSON.parse(step.raw);
      } catch (error) {
        bad.push(`not JSON (${String(error)}): ${step.raw.slice(0, 120)}`);
        continue;
      }
      const problem = checkJsonSchema(value, schema);
      if (problem) bad.push(`${problem}: ${step.raw.slice(0, 120)}`);
    }
  }
  return bad;
}

/** The planner's prompt totals and the engine's own prompt-token counts, in order. */
export async function countsSoFar(
  page: Page,
): Promise<{ planned: number[]; engine: (number | undefined)[]; cached: (number | undefined)[] }> {
  return page.evaluate(() => {
    const loci = (window as unknown as RealWindow).__loci;
    const constrained = loci.completions.filter((c) => c.constrained);
    return {
      planned: loci.plans.map((p) => p.prompt),
      engine: constrained.map((c) => c.promptTokens),
      cached: constrained.map((c) => c.cachedTokens),
    };
  });
}

/** The reply reserve `boundRandomAgent` gives the random model. */
export const RANDOM_REPLY_RESERVE = 1024;

/**
 * Budgets for a turn of the random model (E51): a reserve that holds its longest step, and a
 * step limit that ends a heartbeat chain after a few steps (each step is ~100–400 tokens).
 */
export async function boundRandomAgent(page: Page, agentId: string, maxSteps = 3): Promise<void> {
  await page.evaluate(
    async ({ agentId, maxSteps, replyReserve }) => {
      const store = (
        window as unknown as {
          __loci: {
            store: {
              getAgent(id: string): Promise<{ budgets: object } | undefined>;
              apply(c: object): Promise<unknown>;
            };
          };
        }
      ).__loci.store;
      const agent = await store.getAgent(agentId);
      if (!agent) throw new Error(`no agent ${agentId}`);
      await store.apply({
        agents: [
          {
            ...agent,
            budgets: { ...agent.budgets, replyReserve, maxSteps, maxInvalidSteps: 2 },
          },
        ],
      });
    },
    { agentId, maxSteps, replyReserve: RANDOM_REPLY_RESERVE },
  );
}

/** Sends through the composer and waits for the turn to end (a random turn can take a while). */
export async function sendAndWait(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
  await page.getByRole('button', { name: 'Stop', exact: true }).waitFor({ state: 'visible' });
  await page
    .getByRole('button', { name: 'Send', exact: true })
    .waitFor({ state: 'visible', timeout: 180_000 });
}
