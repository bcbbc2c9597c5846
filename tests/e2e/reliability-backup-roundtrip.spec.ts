/**
 * Issue 34 (X201, S40): a backup made after ordinary use restores, the user's way. Chat a few
 * turns, regenerate a reply, delete a message, delete a chat, "Export everything" in Settings,
 * then import the downloaded file in a fresh browser context (an empty profile): the import
 * succeeds without leaving anything out, and the chats and their messages are there.
 * E2e build: the real loop, store, search and backup worker, with the scripted engine.
 */
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { createAgent, loadScriptedModel, reply, script, send } from './helpers/loci';
import { reportReliability } from './helpers/reliability';

const row = (page: Page, text: string) =>
  page.getByTestId('conversation-row').filter({ hasText: text });

test('X201 S40: a backup exported after regenerate, delete message and delete chat imports into a fresh profile with its chats', async ({
  page,
  browser,
  externalRequests,
}, info) => {
  test.setTimeout(180_000);
  await page.goto('/#/chat');
  await createAgent(page, 'Juniper');
  await loadScriptedModel(page);
  const list = page.getByTestId('conversation-list');

  // First chat: two turns; the last reply regenerated; the first message deleted.
  await script(page, reply('Bergen sounds lovely.'));
  await send(page, 'My sister Ingrid lives in Bergen.');
  await script(page, reply('Expect rain.'));
  await send(page, 'What is the weather like there?');
  await script(page, reply('Bring an umbrella, it rains a lot.'));
  await page
    .getByTestId('assistant-message')
    .last()
    .getByRole('button', { name: 'Regenerate reply' })
    .click();
  await expect(page.getByTestId('assistant-message').last()).toContainText('umbrella');
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeVisible();
  const ingrid = page.getByTestId('user-message').filter({ hasText: 'Ingrid' });
  await ingrid.getByRole('button', { name: 'Delete message from you' }).click();
  await expect(ingrid).toHaveCount(0);

  // A second chat, then a third; the second is deleted.
  await list.getByRole('button', { name: 'New chat' }).click();
  await script(page, reply('Why did the owl stay in? It was a hoot.'));
  await send(page, 'Tell me a joke.');
  await expect(page.getByTestId('assistant-message')).toContainText('hoot');
  await list.getByRole('button', { name: 'New chat' }).click();
  await script(page, reply('Oslo in June is bright until late.'));
  await send(page, 'Plan a trip to Oslo.');
  await expect(page.getByTestId('assistant-message')).toContainText('June');
  await expect(page.getByTestId('conversation-row')).toHaveCount(3);
  // Delete is offered on the chat shown.
  await row(page, 'Tell me a joke')
    .getByRole('button', { name: /^Tell me a joke/ })
    .click();
  await row(page, 'Tell me a joke')
    .getByRole('button', { name: /^Delete “/ })
    .click();
  await row(page, 'Tell me a joke').getByRole('button', { name: 'Delete chat' }).click();
  await expect(page.getByTestId('conversation-row')).toHaveCount(2);

  // Export everything.
  await page.goto('/#/settings');
  const backup = page.getByRole('region', { name: 'Backup' });
  const download = page.waitForEvent('download');
  await backup.getByRole('button', { name: 'Export everything' }).click();
  const file = info.outputPath('loci-backup.json');
  await (await download).saveAs(file);

  // A fresh browser: an empty profile.
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  let lost = 0;
  let failures = 0;
  try {
    await other.goto('/#/settings');
    const card = other.getByRole('region', { name: 'Backup' });
    await card.getByLabel('Backup file to import').setInputFiles(file);
    await card.getByRole('button', { name: 'Import', exact: true }).click();
    const restored = card.getByText(/^Restored 1 agent\b/);
    await restored.or(card.getByRole('alert')).first().waitFor({ timeout: 60_000 });
    await expect(restored).toBeVisible({ timeout: 1_000 });
    await expect(restored).not.toContainText('left out');

    await other.goto('/#/chat');
    await expect(other.getByTestId('conversation-row')).toHaveCount(2, { timeout: 15_000 });
    await other
      .getByTestId('conversation-row')
      .filter({ hasText: 'Plan a trip' })
      .getByRole('button', { name: /^Plan a trip/ })
      .click();
    await expect(other.getByTestId('user-message')).toHaveText([/Plan a trip to Oslo\./]);
    await expect(other.getByTestId('assistant-message')).toHaveText([/Oslo in June/]);
    await other
      .getByTestId('conversation-row')
      .filter({ hasNotText: 'Plan a trip' })
      .getByRole('button')
      .first()
      .click();
    // The first chat as it was left: the deleted message gone (its reply stays), and only the
    // regenerated reply to the second.
    await expect(other.getByTestId('user-message')).toHaveText([
      /What is the weather like there\?/,
    ]);
    await expect(other.getByTestId('assistant-message')).toHaveText([
      /Bergen sounds lovely/,
      /Bring an umbrella/,
    ]);
    await expect(other.getByTestId('message-log')).not.toContainText('Ingrid');
    await expect(other.getByTestId('message-log')).not.toContainText('Expect rain');
  } catch (error) {
    failures = 1;
    lost = 1;
    throw error;
  } finally {
    reportReliability({ name: 'backup-e2e-roundtrip', rule: 'X201', trials: 1, failures, lost });
    await fresh.close();
  }
  expect(externalRequests).toEqual([]);
});
