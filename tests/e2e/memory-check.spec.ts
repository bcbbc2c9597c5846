/**
 * The in-app memory check on the Settings screen (issue 9, item 3; issue 33, item 5; V12–V14) in
 * the built e2e app, whose embedder is the fixture model served at /models/: it replays the probe
 * conversation through the turn loop in a world of its own, shows recall@k for every search mode
 * and the context recall of the active agent's strategy — the user's agents, messages and active
 * agent are as before.
 */
import type { Page } from '@playwright/test';
import { test, expect, waitForServiceWorker } from './fixtures';
import { createAgent, dismissToast, loadScriptedModel, seriousViolations } from './helpers/loci';

interface StoreWindow {
  __loci: {
    store: {
      listAgents(): Promise<{ id: string; name: string }[]>;
      stats(): Promise<Record<string, { rows: number }>>;
    };
    agents: { activeId: string | null };
  };
}

const agentNames = (page: Page) =>
  page.evaluate(async () =>
    (await (window as unknown as StoreWindow).__loci.store.listAgents()).map((a) => a.name),
  );

const rowCounts = (page: Page) =>
  page.evaluate(async () => {
    const stats = await (window as unknown as StoreWindow).__loci.store.stats();
    return Object.fromEntries(Object.entries(stats).map(([k, v]) => [k, v.rows]));
  });

/** Runs the check and waits for its result table. */
async function runCheck(page: Page) {
  const check = page.getByRole('region', { name: 'Memory check' });
  await check.getByRole('button', { name: 'Run memory check' }).click();
  await expect(check.getByTestId('memory-check-retrieval')).toBeVisible({ timeout: 45_000 });
  return check;
}

test.describe('memory check', () => {
  test('V12/V13/V14: recall per search mode and context recall; nothing of the user’s changes', async ({
    page,
    externalRequests,
    shoot,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/#/settings');
    await loadScriptedModel(page);
    const agentId = await createAgent(page, 'Juniper');
    // The check measures the active agent's strategy: make it one that is not the default.
    const form = page.getByRole('form', { name: /Context of “Juniper”/ });
    await form.getByRole('radio', { name: /Forgetting curve/ }).check();
    await form.getByRole('button', { name: 'Save settings' }).click();
    await expect(form.getByRole('status')).toHaveText(/Saved/);
    // The first visit installs the service worker; its toast would cover the screenshots.
    await waitForServiceWorker(page);
    await expect(page.getByTestId('offline-ready')).toBeVisible();
    await dismissToast(page);

    const agentsBefore = await agentNames(page);
    const rowsBefore = await rowCounts(page);
    const check = page.getByRole('region', { name: 'Memory check' });
    await expect(check).toContainText('Loci fixture (tests only)');
    await runCheck(page);

    const table = check.getByTestId('memory-check-retrieval');
    await expect(table).toContainText('15 questions');
    for (const mode of ['By words', 'By meaning', 'Both']) {
      const row = table.getByRole('row', { name: new RegExp(`^${mode}\\b`) });
      // One percentage per k (top 1, 3, 5), each a number: the mode really ran.
      await expect(row.getByRole('cell')).toHaveCount(3);
      for (const text of await row.getByRole('cell').allInnerTexts()) {
        expect(text).toMatch(/^\d{1,3} %$/);
      }
    }
    // Lexical search finds most probe facts in the top 5 (the unit test's bar, in the browser).
    const lexicalTop5 = await table
      .getByRole('row', { name: /^By words\b/ })
      .getByRole('cell')
      .last()
      .innerText();
    expect(Number.parseInt(lexicalTop5, 10)).toBeGreaterThanOrEqual(80);
    await expect(check.getByTestId('memory-check-no-vector')).toHaveCount(0);
    const context = (await check.getByTestId('memory-check-context').innerText()).replace(
      /\s+/g,
      ' ',
    );
    expect(context).toMatch(
      /^Context with Forgetting curve in 600 tokens: the prompt holds an answer for \d{1,3} % of the questions, every needed turn for \d{1,3} %\.$/,
    );
    // The loaded model's tokenizer counts the budget, not the estimator.
    await expect(check.getByText(/^Tokens counted with /)).not.toContainText('estimate');
    await expect(check.getByRole('button', { name: 'Run again' })).toBeEnabled();

    // The check wrote nothing to the user's store; the user's agent is still active.
    expect(await agentNames(page)).toEqual(agentsBefore);
    expect(await rowCounts(page)).toEqual(rowsBefore);
    expect(
      await page.evaluate(() => (window as unknown as StoreWindow).__loci.agents.activeId),
    ).toBe(agentId);
    await expect(form).toBeVisible();

    expect(await seriousViolations(page)).toEqual([]);
    await check.scrollIntoViewIfNeeded();
    await shoot(page, 'memory-check-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await check.getByTestId('memory-check-retrieval').scrollIntoViewIfNeeded();
    await shoot(page, 'memory-check-mobile');
    expect(externalRequests).toEqual([]);
  });

  test('V13: the check is offered once there is an agent whose strategy it measures', async ({
    page,
  }) => {
    await page.goto('/#/settings');
    await expect(page.getByText(/No agent yet/)).toBeVisible();
    await expect(page.getByRole('region', { name: 'Memory check' })).toHaveCount(0);
    await createAgent(page, 'Juniper');
    await expect(page.getByRole('region', { name: 'Memory check' })).toBeVisible();
    // Running it twice adds no agent either.
    const check = await runCheck(page);
    await check.getByRole('button', { name: 'Run again' }).click();
    await expect(check.getByRole('status')).toBeVisible();
    await expect(check.getByRole('button', { name: 'Run again' })).toBeEnabled({ timeout: 45_000 });
    expect(await agentNames(page)).toEqual(['Juniper']);
  });
});
