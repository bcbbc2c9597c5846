/**
 * The guided first run on Home (U191–U194, issue 18): on a fresh profile, name yourself and your
 * companion, take the model recommended for this device, say hello. E2e build: no WebGPU in this
 * Chromium, so the recommendation is a CPU model; the scripted engine stands in where a model is
 * "already loaded".
 */
import type { Page } from '@playwright/test';
import { test, expect, waitForServiceWorker } from './fixtures';
import { loadScriptedModel, reply, script, send, seriousViolations } from './helpers/loci';

const SIZES = [
  [1280, 800],
  [390, 844],
] as const;

interface LociProbe {
  __loci: {
    store: {
      getSetting(key: string): Promise<unknown>;
      listAgents(): Promise<{ id: string; name: string }[]>;
      getBlock(agentId: string, label: string): Promise<{ value: string } | undefined>;
      queryMessages(agentId: string): Promise<{ role: string; text: string; author?: string }[]>;
    };
    models: { state: { loaded: string | null; busy: string | null } };
  };
}

async function agentsInStore(page: Page): Promise<{ id: string; name: string }[]> {
  return page.evaluate(() => (window as unknown as LociProbe).__loci.store.listAgents());
}

test.describe('first run', () => {
  for (const scheme of ['light', 'dark'] as const) {
    for (const [w, h] of SIZES) {
      test(`U191/U192: a fresh profile at ${w}x${h} (${scheme}) shows the first run above the fold, with the CPU model for this device`, async ({
        page,
        shoot,
        externalRequests,
      }) => {
        await page.emulateMedia({ colorScheme: scheme });
        await page.setViewportSize({ width: w, height: h });
        await page.goto('/');
        const card = page.getByTestId('first-run');
        await expect(card).toBeVisible();
        // The whole card, its fields and "Say hello" fit in the first screen (U191).
        await expect(card).toBeInViewport({ ratio: 1 });
        await expect(card.getByLabel('What should your companion call you?')).toBeInViewport();
        await expect(card.getByLabel("Your companion's name")).toHaveValue('Loci');
        await expect(card.getByRole('button', { name: 'Say hello' })).toBeInViewport({ ratio: 1 });
        await expect(
          card.getByRole('button', { name: "Skip — I'll set it up myself" }),
        ).toBeInViewport({ ratio: 1 });
        // No WebGPU here: the recommendation is a CPU model, with its download size (U192).
        const model = card.getByTestId('cpu-recommendation');
        await expect(model).toContainText('Recommended here');
        await expect(model).toContainText(/· \d+(\.\d)? (KB|MB|GB), runs on\s+the processor/);
        // The returning user's actions wait until the first run is done or skipped.
        await expect(page.getByTestId('home-actions')).toHaveCount(0);
        // The device report's warning stays short and says what still works.
        const report = page.getByTestId('device-report');
        await expect(report).toContainText('Memory, documents and search still work here');
        await expect(report.locator('.details')).toBeHidden();
        await shoot(page, `first-run-${w}x${h}-${scheme}`);
        expect(await seriousViolations(page), `first run at ${w}x${h} ${scheme}`).toEqual([]);
        expect(externalRequests).toEqual([]);
      });
    }
  }

  for (const [w, h] of SIZES) {
    test(`U192/U193: at ${w}x${h}, Say hello with a model already loaded creates the named companion and opens its chat; reload shows no first run`, async ({
      page,
      shoot,
      externalRequests,
    }) => {
      await page.setViewportSize({ width: w, height: h });
      await page.goto('/');
      await loadScriptedModel(page);
      const card = page.getByTestId('first-run');
      // A model already loaded is offered first: nothing to download.
      await expect(card.getByTestId('first-run-model')).toHaveAttribute('data-state', 'loaded');
      await expect(card.getByTestId('first-run-model')).toContainText('loaded and ready');
      await card.getByLabel('What should your companion call you?').fill('Sam');
      await card.getByLabel("Your companion's name").fill('Juniper');
      await card.getByRole('button', { name: 'Say hello' }).click();

      await expect(page).toHaveURL(/#\/chat$/);
      await expect(page.getByTestId('agent-select')).toHaveText('Juniper');
      const box = page.getByRole('textbox', { name: 'Message' });
      await expect(box).toBeEnabled();
      await shoot(page, `first-run-hello-${w}x${h}`);

      const agents = await agentsInStore(page);
      expect(agents.map((a) => a.name)).toEqual(['Juniper']);
      const agentId = agents[0]!.id;
      const stored = await page.evaluate(async (id) => {
        const store = (window as unknown as LociProbe).__loci.store;
        return {
          displayName: await store.getSetting('profile.displayName'),
          persona: (await store.getBlock(id, 'persona'))?.value,
          human: (await store.getBlock(id, 'human'))?.value,
        };
      }, agentId);
      // The persona is in the companion's own name; the user's name reaches its memory (U192).
      expect(stored.persona).toMatch(/^I am Juniper,/);
      expect(stored.human).toBe('Name: Sam.');
      expect(stored.displayName).toBe('Sam');
      if (w >= 1280) {
        await expect(page.locator('[data-block="persona"]')).toContainText('I am Juniper');
        await expect(page.locator('[data-block="human"]')).toContainText('Name: Sam.');
      }

      // Saying hello: the message carries the user's display name, the reply the companion's.
      await script(page, reply('Hello Sam, I am Juniper.'));
      await send(page, 'Hello!');
      await expect(page.getByTestId('assistant-message').last()).toContainText('Hello Sam');
      const messages = await page.evaluate(
        (id) => (window as unknown as LociProbe).__loci.store.queryMessages(id),
        agentId,
      );
      expect(messages.find((m) => m.role === 'user' && m.text === 'Hello!')?.author).toBe('Sam');

      // Never again once an agent exists: Home has its usual way in, above the fold (U158).
      await page.goto('/');
      await page.reload();
      await expect(page.getByRole('link', { name: 'Start a conversation' })).toBeInViewport({
        ratio: 1,
      });
      await expect(page.getByTestId('first-run')).toHaveCount(0);
      expect(externalRequests).toEqual([]);
    });
  }

  test('U192/U194: Say hello with nothing downloaded opens the chat while the recommended CPU model downloads and loads', async ({
    page,
    shoot,
    externalRequests,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/');
    const model = page.getByTestId('cpu-recommendation');
    await expect(model).toHaveAttribute('data-state', 'download');
    const modelId = await model.getAttribute('data-model-id');
    expect(modelId).toBeTruthy();
    await page.getByRole('button', { name: 'Say hello' }).click();
    // The chat opens at once, named "Loci" by default; the model is on its way.
    await expect(page).toHaveURL(/#\/chat$/);
    await expect(page.getByTestId('agent-select')).toHaveText('Loci');
    // U206: while it comes, the chat says to wait for it, not to go and get one.
    await expect(page.getByTestId('model-on-its-way')).toBeVisible();
    await expect(page.getByTestId('no-model')).toHaveCount(0);
    await expect(page.getByRole('textbox', { name: 'Message' })).toHaveAttribute(
      'placeholder',
      /once your model is ready/,
    );
    await shoot(page, 'first-run-loading-1280x800');
    await expect
      .poll(
        () =>
          page.evaluate(() => {
            const { loaded, busy } = (window as unknown as LociProbe).__loci.models.state;
            return loaded ?? busy;
          }),
        { timeout: 10_000 },
      )
      .toBe(modelId);
    await expect
      .poll(
        () => page.evaluate(() => (window as unknown as LociProbe).__loci.models.state.loaded),
        {
          timeout: 90_000,
        },
      )
      .toBe(modelId);
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeEnabled();
    await expect(page.getByTestId('model-loading')).toHaveCount(0);
    // No display name was given: none is stored.
    expect(
      await page.evaluate(() =>
        (window as unknown as LociProbe).__loci.store.getSetting('profile.displayName'),
      ),
    ).toBeUndefined();
    expect(externalRequests).toEqual([]);
  });

  test('U322: a first download that fails offline says so in the chat, with the reason and Retry', async ({
    page,
    context,
    shoot,
    externalRequests,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    // The app itself works offline from its service worker (P7): only the model is missing.
    await page.goto('/');
    await waitForServiceWorker(page);
    await page.reload();
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null))
      .toBe(true);
    const model = page.getByTestId('cpu-recommendation');
    await expect(model).toHaveAttribute('data-state', 'download');
    const modelId = await model.getAttribute('data-model-id');
    await context.setOffline(true);
    await page.getByRole('button', { name: 'Say hello' }).click();
    await expect(page).toHaveURL(/#\/chat$/);
    // The chat says which download failed and why — not only "no model, go to Models".
    const failed = page.getByTestId('model-failed');
    await expect(failed).toHaveAttribute('data-code', 'network_unavailable');
    await expect(failed).toContainText('did not finish loading');
    await expect(failed).toContainText('There is no network connection');
    await expect(page.getByTestId('no-model')).toHaveCount(0);
    await expect(page.getByTestId('model-on-its-way')).toHaveCount(0);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [w, h] of SIZES) {
        await page.setViewportSize({ width: w, height: h });
        await expect(failed.getByRole('button', { name: 'Retry' })).toBeInViewport();
        await shoot(page, `chat-model-failed-${w}x${h}-${scheme}`);
        expect(await seriousViolations(page), `model failure at ${w}x${h} ${scheme}`).toEqual([]);
      }
    }
    // Back online, Retry in the chat downloads and loads it; the notice goes and the composer opens.
    await context.setOffline(false);
    await failed.getByRole('button', { name: 'Retry' }).click();
    await expect
      .poll(
        () => page.evaluate(() => (window as unknown as LociProbe).__loci.models.state.loaded),
        { timeout: 90_000 },
      )
      .toBe(modelId);
    await expect(failed).toHaveCount(0);
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeEnabled();
    expect(externalRequests).toEqual([]);
  });

  test('U193: Skip hides the first run for good and leaves no agent', async ({
    page,
    externalRequests,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await page.getByRole('button', { name: "Skip — I'll set it up myself" }).click();
    await expect(page.getByTestId('first-run')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Start a conversation' })).toBeInViewport({
      ratio: 1,
    });
    await page.reload();
    await expect(page.getByRole('link', { name: 'Start a conversation' })).toBeVisible();
    await expect(page.getByTestId('first-run')).toHaveCount(0);
    expect(await agentsInStore(page)).toEqual([]);
    expect(externalRequests).toEqual([]);
  });
});

test('U193: Settings → Your name shows, trims and keeps the display name', async ({
  page,
  externalRequests,
}) => {
  await page.goto('/');
  await page.getByRole('button', { name: "Skip — I'll set it up myself" }).click();
  await page.goto('/#/settings');
  const field = page.getByRole('textbox', { name: 'Your name' });
  await expect(field).toHaveValue('');
  await field.fill('  Ada  ');
  await page.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByText('Saved: your companion calls you Ada.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Your name' })).toHaveValue('Ada');
  expect(
    await page.evaluate(() =>
      (window as unknown as LociProbe).__loci.store.getSetting('profile.displayName'),
    ),
  ).toBe('Ada');
  expect(externalRequests).toEqual([]);
});
