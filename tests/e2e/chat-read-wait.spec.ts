/**
 * Issue 36 item 4 (A43): on an engine that reads slowly (the CPU), the chat says how long the
 * wait before the first word will be, from this device's speed learned on the replies before; a
 * reply's Details say what it read and how long that took. The scripted engine stands in for
 * llama.cpp here: it keeps a prefix cache, says what it reused, and reads at a set speed.
 */
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { createAgent, loadScriptedModelWith, reply, script, send, step } from './helpers/loci';

/** A turn may wait for the embedding model to load (see `send`). */
const FIRST_TURN_MS = 90_000;
test.describe.configure({ timeout: 180_000 });

/** A memory edit, then a reply: the edit changes the system message, so step 2 reads it all. */
async function editThenReply(page: Page, content: string, text: string): Promise<void> {
  await script(
    page,
    step('core_memory_append', { label: 'human', content }, true),
    reply(`Noted: ${text}.`),
  );
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(`Please remember: ${text}.`);
  await box.press('Enter');
}

test('A43: the wait before the first word is said from the speed the last replies were read at', async ({
  page,
  shoot,
}) => {
  await page.goto('/#/chat');
  await createAgent(page, 'Juniper');
  // ~1,100 prompt tokens at 250 tokens/s: about 4.5 s of reading, as a small CPU model does.
  await loadScriptedModelWith(page, { readTokensPerSecond: 250 });
  await script(page, reply('Hello Sam, nice to meet you.'));
  await send(page, 'Hi, I am Sam and I love hiking.', FIRST_TURN_MS);
  // Nothing was known before the first reply: it said only that Juniper was thinking.
  const first = page.getByTestId('assistant-message').last();
  await expect(first).toContainText('nice to meet you');
  await first.getByRole('button', { name: /^Reply details/ }).click();
  await expect(first.getByTestId('reply-stats')).toContainText(
    /read [\d,]{3,} new tokens in [\d.]+ s/,
  );

  await editThenReply(page, 'Name: Sam.', 'my name is Sam');
  const thinking = page.getByTestId('thinking');
  await expect(thinking).toHaveText(
    /^Juniper is reading [\d,]{3,} new tokens — about [\d.]+ s on this device…$/,
    { timeout: 15_000 },
  );
  await shoot(page, 'chat-read-wait-1280x800');
  await expect(page.getByTestId('assistant-message').last()).toContainText('my name is Sam', {
    timeout: 30_000,
  });
  await page.getByRole('button', { name: 'Send', exact: true }).waitFor();

  await page.setViewportSize({ width: 390, height: 844 });
  await editThenReply(page, 'Hikes on Sundays.', 'I hike on Sundays');
  await expect(thinking).toHaveText(/is reading [\d,]{3,} new tokens — about [\d.]+ s/, {
    timeout: 15_000,
  });
  await expect(thinking).toBeInViewport();
  await shoot(page, 'chat-read-wait-390x844');
  await expect(page.getByTestId('assistant-message').last()).toContainText('I hike on Sundays', {
    timeout: 30_000,
  });
  await page.getByRole('button', { name: 'Send', exact: true }).waitFor();

  // The speed is the device's: a new chat knows it before its own first reply, after a reload.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.reload();
  await loadScriptedModelWith(page, { readTokensPerSecond: 250 });
  await page.getByRole('button', { name: 'New chat' }).click();
  await script(page, reply('Hello again.'));
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('A new chat about the mountains.');
  await box.press('Enter');
  await expect(thinking).toHaveText(/is reading [\d,]{3,} new tokens — about [\d.]+ s/, {
    timeout: 15_000,
  });
  await expect(page.getByTestId('assistant-message').last()).toContainText('Hello again.', {
    timeout: 30_000,
  });
});
