/**
 * Your own model server (E70–E73, U280–U284): the app in Chromium talks to a real llama.cpp
 * (node-llama-cpp over the fixture GGUF, tests/servers/llama-server.mjs) on 127.0.0.1 through
 * the endpoint engine in the LLM worker. No scripted engine is involved in a turn.
 */
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { createAgent } from './helpers/loci';
import {
  boundRandomAgent,
  loadFixtureModel,
  sendAndWait,
  turnsWithSteps,
} from './helpers/real-engine';
import { startLlamaServer, FIXTURE_MODEL_ID } from '../servers/llama-server.mjs';

interface Server {
  url: string;
  control(changes: Record<string, unknown>): void;
  stats(): {
    completions: { schema: boolean; finish: string }[];
    refused: { prompt_n: number; max_tokens: number }[];
    requests: { path: string; origin: string | null }[];
  };
  close(): Promise<void>;
}

let server: Server;
const DEFAULTS = {
  cors: 'allow',
  apiKey: null,
  ignoreSchema: false,
  cutNextAfter: null,
  pieceDelayMs: 0,
};

test.beforeAll(async () => {
  // 6,144: a window of its own, unlike the CPU fixture's 8,192, so a plan shows which engine ran.
  server = (await startLlamaServer({ contextSize: 6144 })) as Server;
});
test.afterAll(async () => {
  await server?.close();
});
test.beforeEach(() => {
  server.control(DEFAULTS);
});

/** Fills the server form on the Models screen and presses Test connection. */
async function testConnection(page: Page, key = ''): Promise<void> {
  await page.goto('/#/models');
  const form = page.getByTestId('model-server');
  await form.getByTestId('server-url').fill(`${server.url}/v1`);
  await form.getByTestId('server-key').fill(key);
  await form.getByTestId('server-test').click();
  await expect(form.getByTestId('server-test')).toHaveText('Test connection', { timeout: 30_000 });
}

/** Connects through the form and loads the fixture model on the server. */
async function useServerModel(page: Page): Promise<void> {
  await testConnection(page);
  const form = page.getByTestId('model-server');
  await expect(form.getByTestId('server-ok')).toContainText('1 model');
  await expect(form.getByTestId('server-model')).toHaveValue(FIXTURE_MODEL_ID);
  await form.getByTestId('server-use').click();
  await expect(page.getByTestId('loaded-model')).toContainText('(your model server)');
}

async function userMessages(page: Page, agentId: string): Promise<string[]> {
  const stored = await page.evaluate(
    (id) =>
      (
        window as unknown as {
          __loci: {
            store: { queryMessages(id: string): Promise<{ role: string; text: string }[]> };
          };
        }
      ).__loci.store.queryMessages(id),
    agentId,
  );
  return stored.filter((m) => m.role === 'user').map((m) => m.text);
}

test.describe('your own model server (real llama.cpp on 127.0.0.1)', () => {
  test('E70 E71 U280: connect, list models, and a full chat turn with schema-constrained steps', async ({
    page,
    externalRequests,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    await useServerModel(page);
    await expect(page.getByTestId('server-privacy')).toContainText(
      'your chat text goes to that server',
    );
    await expect(page.getByTestId('server-ok')).toContainText('6,144 tokens');
    await expect(page.getByTestId('server-ok')).toContainText('llama.cpp /props');

    await page.goto('/#/chat');
    const agentId = await createAgent(page, 'Juniper');
    await boundRandomAgent(page, agentId);
    const before = server.stats().completions.length;
    await sendAndWait(page, 'Hello! My sister lives in Lisbon.');
    const turns = await turnsWithSteps(page, agentId);
    expect(turns).toHaveLength(1);
    expect(turns[0]?.turn.status).toBe('done');
    // The turn's own error, if any, is the message: it names what went wrong.
    expect(['end_turn', 'max_steps', 'invalid_tool_call'], turns[0]?.turn.error).toContain(
      turns[0]?.turn.stopReason,
    );
    expect(turns[0]?.steps.length).toBeGreaterThan(0);
    // Every step went to llama.cpp with the step schema as its grammar.
    const steps = server.stats().completions.slice(before);
    expect(steps.length).toBeGreaterThan(0);
    expect(steps.every((c) => c.schema)).toBe(true);
    // E86: no request asked for more than the window holds, however the random model's steps
    // tokenize (the planner's estimate reads its odd characters low).
    expect(server.stats().refused).toEqual([]);
    expect(await userMessages(page, agentId)).toEqual(['Hello! My sister lives in Lisbon.']);
    await expect(page.getByTestId('counts-estimated').first()).toBeVisible();
    expect(externalRequests).toEqual([]);
  });

  test('E70 A5: Stop interrupts a streaming reply; the turn is cancelled and Retry runs it again', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await useServerModel(page);
    await page.goto('/#/chat');
    const agentId = await createAgent(page, 'Juniper');
    await boundRandomAgent(page, agentId);
    server.control({ pieceDelayMs: 40 });
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Tell me a long story.');
    await box.press('Enter');
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await expect(page.getByTestId('chat-error')).toHaveAttribute('data-code', 'cancelled');
    const [first] = await turnsWithSteps(page, agentId);
    expect(first?.turn.stopReason).toBe('cancelled');
    server.control({ pieceDelayMs: 0 });
    await page.getByTestId('chat-error').getByRole('button', { name: 'Retry' }).click();
    await page
      .getByRole('button', { name: 'Send', exact: true })
      .waitFor({ state: 'visible', timeout: 90_000 });
    const turns = await turnsWithSteps(page, agentId);
    expect(turns.length).toBe(2);
    expect(await userMessages(page, agentId)).toEqual(['Tell me a long story.']);
  });

  test('E72: the server dying mid-stream says so, loses nothing, and Retry works', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await useServerModel(page);
    await page.goto('/#/chat');
    const agentId = await createAgent(page, 'Juniper');
    await boundRandomAgent(page, agentId);
    server.control({ cutNextAfter: 3 });
    await sendAndWait(page, 'Remember that I like tea.');
    const notice = page.getByTestId('chat-error');
    await expect(notice).toHaveAttribute('data-code', 'endpoint_stream_cut');
    await expect(notice).toContainText('stopped in the middle of the reply');
    expect(await userMessages(page, agentId)).toEqual(['Remember that I like tea.']);
    await notice.getByRole('button', { name: 'Retry' }).click();
    await page
      .getByRole('button', { name: 'Send', exact: true })
      .waitFor({ state: 'visible', timeout: 90_000 });
    const turns = await turnsWithSteps(page, agentId);
    expect(turns.map((t) => t.turn.stopReason)).toContain('error');
    const retried = turns.find((t) => t.turn.stopReason !== 'error');
    expect(
      ['end_turn', 'max_steps', 'invalid_tool_call'],
      JSON.stringify(turns.map((t) => t.turn.error)),
    ).toContain(retried?.turn.stopReason);
    expect(server.stats().refused).toEqual([]);
    expect(await userMessages(page, agentId)).toEqual(['Remember that I like tea.']);
  });

  test('E73: a server that ignores the schema costs bounded retries and stops with a named reason', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await useServerModel(page);
    await page.goto('/#/chat');
    const agentId = await createAgent(page, 'Juniper');
    await boundRandomAgent(page, agentId);
    server.control({ ignoreSchema: true });
    const before = server.stats().completions.length;
    await sendAndWait(page, 'Hello there.');
    const [turn] = await turnsWithSteps(page, agentId);
    expect(turn?.turn.stopReason).toBe('invalid_tool_call');
    await expect(page.getByTestId('chat-error')).toHaveAttribute('data-code', 'invalid_tool_call');
    await expect(page.getByTestId('chat-error')).toContainText('could not carry out');
    // maxInvalidSteps 2 (boundRandomAgent): the first bad step and two retries, no more.
    expect(server.stats().completions.length - before).toBeLessThanOrEqual(3);
    // Nothing from the free text reached memory: no core block changed, no archival passage.
    expect(await userMessages(page, agentId)).toEqual(['Hello there.']);
    // Test connection names the same fault up front.
    await testConnection(page);
    await expect(page.getByTestId('server-error')).toHaveAttribute(
      'data-code',
      'endpoint_no_json_schema',
    );
  });

  test('E71: a wrong API key and a CORS refusal are named, with what to change on the server', async ({
    page,
  }) => {
    server.control({ apiKey: 'the-right-key' });
    await testConnection(page, 'a-wrong-key');
    const error = page.getByTestId('server-error');
    await expect(error).toHaveAttribute('data-code', 'endpoint_auth');
    await expect(error).toContainText('HTTP 401');
    await testConnection(page, 'the-right-key');
    await expect(page.getByTestId('server-ok')).toBeVisible();

    // The page is cross-origin isolated (COEP require-corp), so the browser hides whether a
    // failed call met a closed port or a CORS refusal (ADR 0122): both causes are named, with
    // the server setting to change.
    server.control({ apiKey: null, cors: 'deny' });
    await testConnection(page);
    await expect(error).toHaveAttribute('data-code', 'endpoint_unreachable');
    await expect(error).toContainText('(CORS)');
    await expect(error).toContainText('OLLAMA_ORIGINS');
    expect(
      server
        .stats()
        .requests.some((r: { path: string; origin: string | null }) => r.origin !== null),
    ).toBe(true);
  });

  test('U283: an agent set to the server model switches to it before its turn; the plan takes its window', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await useServerModel(page);
    // Another engine is loaded now: the CPU fixture in the browser (wllama), window 8,192.
    await loadFixtureModel(page);
    await expect(page.getByTestId('loaded-model')).toContainText('Loci fixture');
    await page.goto('/#/chat');
    const agentId = await createAgent(page, 'Juniper');
    await boundRandomAgent(page, agentId);
    await page.evaluate(
      ({ id, model }) =>
        (
          window as unknown as {
            __loci: { agents: { setModel(id: string, m: string | null): Promise<void> } };
          }
        ).__loci.agents.setModel(id, model),
      { id: agentId, model: `server:${FIXTURE_MODEL_ID}` },
    );
    const before = server.stats().completions.length;
    await sendAndWait(page, 'Hello from the server agent.');
    expect(server.stats().completions.length).toBeGreaterThan(before);
    const facts = await page.evaluate(() => {
      const loci = (
        window as unknown as {
          __loci: {
            models: { state: { loaded: string | null } };
            session: { lastPlan: { window: number } | null };
          };
        }
      ).__loci;
      return { loaded: loci.models.state.loaded, window: loci.session.lastPlan?.window ?? null };
    });
    expect(facts).toEqual({ loaded: `server:${FIXTURE_MODEL_ID}`, window: 6144 });
  });
});
