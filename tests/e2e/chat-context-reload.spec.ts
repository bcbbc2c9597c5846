/**
 * Issue 37 item 5: the context bar shows the last turn's plan again after a reload (U293).
 */
import { test, expect } from './fixtures';
import { contextTotal, createAgent, loadScriptedModel, reply, script, send } from './helpers/loci';

/** A turn may wait for the embedding model to load (see `send`). */
const FIRST_TURN_MS = 90_000;
test.describe.configure({ timeout: 180_000 });

test('U293: after a reload the context bar shows the last turn’s plan, not "No context yet"', async ({
  page,
  shoot,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/#/chat');
  await createAgent(page, 'Juniper');
  await loadScriptedModel(page);
  await script(page, reply('Hello! Nice to meet you.'), reply('Paris, in June.'));
  await send(page, 'Hello there', FIRST_TURN_MS);
  await send(page, 'Where do we go this summer?', FIRST_TURN_MS);
  const before = await contextTotal(page);
  expect(before).toMatch(/\/ 4,096 tokens/);
  const sections = await page.locator('.context-bar').first().innerText();

  await page.reload();
  await expect(page.getByTestId('assistant-message').last()).toContainText('Paris, in June.');
  await expect(page.locator('.context-bar .total').first()).toHaveText(before);
  await expect(page.locator('.context-bar').first()).not.toContainText('No context yet');
  expect(await page.locator('.context-bar').first().innerText()).toContain(
    sections.split('\n').find((line) => line.startsWith('Messages')) ?? 'Messages',
  );
  await shoot(page, 'chat-context-after-reload-1280x800');
});
