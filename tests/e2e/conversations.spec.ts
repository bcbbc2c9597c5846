/**
 * Several conversations of one agent (issue 19, U187–U190, A22–A24) in the built e2e app: the
 * conversation list (new chat, rename, search by title, delete with confirm and Undo), a fact
 * told in one conversation recalled into another's prompt, recall search after delete and Undo,
 * the list after a reload, and screenshots at 1280×800 and 390×844. Real loop, store and search
 * in Chromium; scripted model.
 */
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import {
  createAgent,
  dismissToast,
  loadScriptedModel,
  reply,
  script,
  send,
  seriousViolations,
} from './helpers/loci';

const row = (page: Page, title: string) =>
  page.getByTestId('conversation-row').filter({ hasText: title });

/** Searches recall storage (the memory panel's search, by words) and returns the status text. */
async function recallSearch(page: Page, words: string) {
  const recall = page.locator('#pane-memory').getByRole('region', { name: 'Recall storage' });
  await recall.getByRole('searchbox', { name: 'Search conversation' }).fill(words);
  await recall.getByRole('radio', { name: 'Words' }).check();
  await recall.getByRole('button', { name: 'Search' }).click();
  return recall;
}

test('U187–U190: two conversations share recall; delete and Undo; the list survives a reload', async ({
  page,
  shoot,
  externalRequests,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/#/chat');
  await createAgent(page, 'Juniper');
  await loadScriptedModel(page);
  await dismissToast(page);

  // The agent starts with one conversation, selected; the user names it.
  const list = page.getByTestId('conversation-list');
  await expect(list.getByTestId('conversation-row')).toHaveCount(1);
  await list.getByRole('button', { name: 'Rename “New chat”' }).click();
  const title = list.getByLabel('Title of “New chat”');
  await title.fill('   ');
  await list.getByRole('button', { name: 'Save' }).click();
  await expect(list.getByRole('alert')).toHaveText('A conversation needs a title.');
  await title.fill('x'.repeat(81));
  await list.getByRole('button', { name: 'Save' }).click();
  await expect(list.getByRole('alert')).toContainText('81 characters; at most 80 fit');
  await title.fill('Family');
  await list.getByRole('button', { name: 'Save' }).click();
  await expect(row(page, 'Family').getByRole('button', { name: /^Family/ })).toHaveAttribute(
    'aria-current',
    'true',
  );

  // Conversation 1: a fact about the user's sister.
  await script(page, reply('Noted: your sister Mia lives in Lisbon.'));
  await send(page, 'My sister Mia lives in Lisbon, near the river.');
  await expect(page.getByTestId('assistant-message').last()).toContainText('Mia lives in Lisbon');
  const panel = page.locator('#pane-memory');
  await expect(panel.getByTestId('memory-conversation-title')).toHaveText('Family');
  await expect(panel.getByTestId('shared-memory-note')).toContainText(
    "shared by all of Juniper's conversations",
  );

  // Conversation 2: a new chat starts empty (core memory, no queue).
  await list.getByRole('button', { name: 'New chat' }).click();
  await expect(list.getByTestId('conversation-row')).toHaveCount(2);
  await expect(page.getByTestId('user-message')).toHaveCount(0);
  await expect(panel.getByTestId('memory-conversation-title')).toHaveText('New chat');
  await expect(panel.locator('.queue')).not.toContainText('Lisbon');

  // Asked there, automatic recall pages the first conversation's message into this prompt,
  // named by its conversation.
  await script(page, reply('Mia lives in Lisbon, near the river.'));
  await send(page, 'Where does my sister Mia live?');
  const paged = panel.locator('[data-memory]').filter({ hasText: 'Lisbon, near the river' });
  await expect(paged.first()).toBeVisible();
  await expect(paged.first()).toContainText('In “Family”');
  await panel.getByLabel('Show the exact prompt text').check();
  await expect(paged.first()).toContainText(
    ', in "Family"] "My sister Mia lives in Lisbon, near the river."',
  );
  await panel.getByLabel('Show the exact prompt text').uncheck();
  // The chat shows this conversation only; it took its title from its first message.
  await expect(page.getByTestId('user-message')).toHaveCount(1);
  await expect(page.getByTestId('user-message')).toContainText('Where does my sister Mia live?');
  await expect(row(page, 'Where does my sister Mia live?')).toBeVisible();
  // Most recent first.
  await expect(list.getByTestId('conversation-row').first()).toContainText('Where does my sister');

  // Search by title.
  await list.getByRole('searchbox', { name: 'Search chats by title' }).fill('fam');
  await expect(list.getByTestId('conversation-row')).toHaveCount(1);
  await expect(list.getByTestId('conversation-row')).toContainText('Family');
  await list.getByRole('searchbox', { name: 'Search chats by title' }).fill('');
  await expect(list.getByTestId('conversation-row')).toHaveCount(2);

  // Switching shows the other conversation's messages only.
  await row(page, 'Family')
    .getByRole('button', { name: /^Family/ })
    .click();
  await expect(page.getByTestId('user-message')).toHaveCount(1);
  await expect(page.getByTestId('user-message')).toContainText('My sister Mia lives in Lisbon');
  await dismissToast(page);
  await shoot(page, 'conversations-list-1280x800');

  // Delete "Family" (confirmed): its messages leave recall search; Undo brings them back.
  let recall = await recallSearch(page, 'river');
  await expect(recall.getByRole('list', { name: 'Recall results' })).toContainText(
    'My sister Mia lives in Lisbon',
  );
  await row(page, 'Family').getByRole('button', { name: 'Delete “Family”' }).click();
  await expect(row(page, 'Family')).toContainText('They leave recall search too');
  await shoot(page, 'conversations-delete-confirm-1280x800');
  await row(page, 'Family').getByRole('button', { name: 'Delete chat' }).click();
  await expect(row(page, 'Family')).toHaveCount(0);
  const undo = page.getByTestId('undo-delete-chat');
  await expect(undo).toContainText('Deleted “Family”');
  await expect(undo.getByRole('button', { name: 'Undo' })).toBeFocused();
  // The other conversation is shown now.
  await expect(page.getByTestId('user-message')).toContainText('Where does my sister Mia live?');
  recall = await recallSearch(page, 'river');
  const results = recall.getByRole('list', { name: 'Recall results' });
  await expect(results).not.toContainText('My sister Mia lives in Lisbon');
  // The reply in the kept conversation mentions the river too, and stays searchable.
  await expect(results).toContainText('Mia lives in Lisbon, near the river.');

  await undo.getByRole('button', { name: 'Undo' }).click();
  await expect(row(page, 'Family')).toBeVisible();
  await expect(page.getByTestId('user-message')).toContainText('My sister Mia lives in Lisbon');
  recall = await recallSearch(page, 'river');
  await expect(recall.getByRole('list', { name: 'Recall results' })).toContainText(
    'My sister Mia lives in Lisbon',
  );

  // After a reload: both conversations, most recent first, and the one the user was in.
  await page.reload();
  await loadScriptedModel(page);
  await expect(list.getByTestId('conversation-row')).toHaveCount(2);
  await expect(list.getByTestId('conversation-row').first()).toContainText('Where does my sister');
  await expect(row(page, 'Family').getByRole('button', { name: /^Family/ })).toHaveAttribute(
    'aria-current',
    'true',
  );
  await expect(page.getByTestId('user-message')).toContainText('My sister Mia lives in Lisbon');

  // At 390×844 the list is a switcher that opens it as a sheet.
  await page.setViewportSize({ width: 390, height: 844 });
  await dismissToast(page);
  const switcher = page.getByTestId('conversation-switcher');
  await expect(switcher).toContainText('Family');
  await shoot(page, 'conversations-switcher-390x844');
  await switcher.click();
  const sheet = page.getByRole('dialog', { name: 'Chats of Juniper' });
  await expect(sheet.getByTestId('conversation-row')).toHaveCount(2);
  await shoot(page, 'conversations-list-390x844');
  expect(await seriousViolations(page)).toEqual([]);
  await sheet.getByRole('button', { name: /^Where does my sister/ }).click();
  await expect(sheet).toBeHidden();
  await expect(switcher).toContainText('Where does my sister');
  await expect(page.getByTestId('user-message')).toContainText('Where does my sister Mia live?');
  // The memory tab names the conversation it shows.
  await page.getByTestId('memory-tab').click();
  await expect(panel.getByTestId('memory-conversation-title')).toHaveText(
    'Where does my sister Mia live?',
  );
  expect(externalRequests).toEqual([]);
});
