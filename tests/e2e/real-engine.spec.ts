/**
 * The real engine in the browser (E46): the fixture GGUF model, downloaded from the app's own
 * origin, runs on llama.cpp (wllama) in the LLM worker. No scripted engine anywhere in a turn.
 */
import { test, expect } from './fixtures';
import { createAgent } from './helpers/loci';
import {
  boundRandomAgent,
  countsSoFar,
  FIXTURE_MODEL,
  loadFixtureModel,
  malformedSteps,
  sendAndWait,
  turnsWithSteps,
} from './helpers/real-engine';

// No retry (issue 38 item 5). Its two earlier causes are fixed: Stop now cancels a turn still
// waiting for the embed worker (d9b91ab), and the one failure left in 24 runs on 2026-12-07 was
// `malformedSteps` checking steps against the reserve's schema, narrower than the one a step is
// sampled under since ADR 0198 (helpers/real-engine.ts). The wllama "GLUE" desync (ADR 0115) did
// not occur in those runs; if it comes back, root-cause it rather than retry.

test.describe('real engine (llama.cpp in WebAssembly) on the fixture model', () => {
  test('E46 U260 U261: without a GPU, Models recommends a CPU model and the fixture downloads with progress and chats', async ({
    page,
    shoot,
    externalRequests,
  }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/#/models');
    await expect(page.getByTestId('no-webgpu-banner')).toContainText('chat runs on the processor');
    const cpu = page.getByTestId('cpu-models');
    await expect(cpu.getByText('Recommended')).toHaveCount(1);
    await shoot(page, 'models-no-gpu-1280x800');
    await page.setViewportSize({ width: 390, height: 844 });
    await shoot(page, 'models-no-gpu-390x844');
    await page.goto('/#/');
    await expect(page.getByTestId('cpu-recommendation')).toContainText('Recommended here');
    await shoot(page, 'home-no-gpu-390x844');
    await page.setViewportSize({ width: 1280, height: 800 });
    await shoot(page, 'home-no-gpu-1280x800');
    await page.goto('/#/models');
    const row = cpu.locator(`[data-model-id="${FIXTURE_MODEL}"]`);
    await row.getByRole('button', { name: /^Download/ }).click();
    await expect(row.getByTestId('model-state')).toContainText('Loaded and ready to chat', {
      timeout: 60_000,
    });
    await expect(page.getByTestId('loaded-model')).toContainText('Loci fixture');
    await expect(page.getByTestId('cpu-threads')).toBeVisible();

    await page.goto('/#/chat');
    const agentId = await createAgent(page, 'Juniper');
    await boundRandomAgent(page, agentId);
    await sendAndWait(page, 'Hello! My sister lives in Lisbon.');
    const turns = await turnsWithSteps(page, agentId);
    expect(turns).toHaveLength(1);
    const [only] = turns;
    expect(only?.turn.status).toBe('done');
    expect(['end_turn', 'max_steps', 'invalid_tool_call']).toContain(only?.turn.stopReason);
    expect(only?.steps.length).toBeGreaterThan(0);
    expect(await malformedSteps(page, agentId)).toEqual([]);
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
    expect(stored.filter((m) => m.role === 'user' && m.text.includes('Lisbon'))).toHaveLength(1);
    expect(externalRequests).toEqual([]);
  });

  test('E46 A5: stopping mid-stream cancels the turn; sending again runs a new turn on the same engine', async ({
    page,
    externalRequests,
  }) => {
    test.setTimeout(240_000);
    await page.goto('/#/chat');
    const agentId = await createAgent(page, 'Juniper');
    await boundRandomAgent(page, agentId);
    await loadFixtureModel(page);
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('First message, to be stopped.');
    await box.press('Enter');
    const stop = page.getByRole('button', { name: 'Stop', exact: true });
    await stop.waitFor({ state: 'visible' });
    // Wait until the engine is generating (a request is in flight), then stop it.
    await page.waitForTimeout(300);
    await stop.click();
    await page
      .getByRole('button', { name: 'Send', exact: true })
      .waitFor({ state: 'visible', timeout: 30_000 });
    await sendAndWait(page, 'Second message, after the stop.');
    const turns = await turnsWithSteps(page, agentId);
    expect(turns.map((t) => t.turn.status)).toEqual(['done', 'done']);
    expect(turns[0]?.turn.stopReason).toBe('cancelled');
    expect(['end_turn', 'max_steps', 'invalid_tool_call']).toContain(turns[1]?.turn.stopReason);
    expect(turns[1]?.steps.length).toBeGreaterThan(0);
    expect(await malformedSteps(page, agentId)).toEqual([]);
    expect(externalRequests).toEqual([]);
  });

  test('E44 E46: the token count the planner used equals llama.cpp’s own count of each request', async ({
    page,
    externalRequests,
  }) => {
    test.setTimeout(240_000);
    await page.goto('/#/chat');
    const agentId = await createAgent(page, 'Juniper');
    await boundRandomAgent(page, agentId);
    await loadFixtureModel(page);
    await sendAndWait(page, 'Remember: my name is Sam and I like green tea — 你好! 🎉');
    await sendAndWait(page, 'What do I like to drink?');
    const { planned, engine, cached } = await countsSoFar(page);
    expect(planned.length).toBeGreaterThan(1);
    expect(engine).toEqual(planned);
    // The second request shares its prefix with the first: llama.cpp reused the cache.
    expect(cached.slice(1).some((n) => (n ?? 0) > 0)).toBe(true);
    expect(externalRequests).toEqual([]);
  });
});
