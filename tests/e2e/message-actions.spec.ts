/**
 * Message actions (issue 18, U182–U186): copy, delete with Undo (the message also leaves recall
 * search, and comes back), edit-and-resend of the latest message and regenerate of the latest
 * reply. E2e build: the real loop, store and search, with the scripted engine.
 */
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import {
  createAgent,
  dismissToast,
  loadScriptedModel,
  longText,
  recallSearch,
  reply,
  script,
  send,
  seriousViolations,
  setReplyReserve,
  step,
  waitForStreaming,
} from './helpers/loci';

async function startChat(page: Page): Promise<string> {
  await page.goto('/#/chat');
  const agentId = await createAgent(page, 'Juniper');
  await loadScriptedModel(page);
  return agentId;
}

test.describe('message actions', () => {
  test('U185: a deleted message leaves the chat and recall search; Undo brings both back', async ({
    page,
    externalRequests,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await startChat(page);
    await script(page, reply('Bergen sounds lovely.'));
    await send(page, 'My sister Ingrid lives in Bergen.');
    await script(page, reply('Expect rain.'));
    await send(page, 'What is the weather like there?');
    await expect(page.getByTestId('assistant-message')).toHaveCount(2);
    expect(await recallSearch(page, 'Ingrid')).toContain('My sister Ingrid lives in Bergen.');

    const first = page.getByTestId('user-message').filter({ hasText: 'Ingrid' });
    await first.getByRole('button', { name: 'Delete message from you' }).click();
    await expect(first).toHaveCount(0);
    await expect(page.getByTestId('user-message')).toHaveCount(1);
    const undo = page.getByTestId('undo-delete');
    await expect(undo).toContainText('Message deleted');
    // Focus moves to Undo: the focused button went away with the message.
    await expect(undo.getByRole('button', { name: 'Undo' })).toBeFocused();
    // Polled: the panel may still show the previous search's page for a moment.
    await expect.poll(() => recallSearch(page, 'Ingrid')).not.toContain('Ingrid');
    // A reload reads the store: the message is really gone, not just hidden.
    await page.reload();
    await expect(page.getByTestId('assistant-message')).toHaveCount(2);
    await expect(page.getByTestId('user-message')).toHaveCount(1);

    // Undo (after deleting again, since a reload ends the chance to undo).
    const reply2 = page.getByTestId('assistant-message').filter({ hasText: 'Expect rain.' });
    await reply2.getByRole('button', { name: 'Delete message from Juniper' }).click();
    await expect(reply2).toHaveCount(0);
    await expect.poll(() => recallSearch(page, 'rain')).not.toContain('Expect rain.');
    await page.getByTestId('undo-delete').getByRole('button', { name: 'Undo' }).click();
    await expect(page.getByTestId('undo-delete')).toHaveCount(0);
    await expect(reply2).toHaveCount(1);
    // Back in its place, after the message it answers.
    const texts = await page.getByTestId('message-log').locator('article').allInnerTexts();
    expect(texts.findIndex((t) => t.includes('Expect rain.'))).toBe(texts.length - 1);
    await expect.poll(() => recallSearch(page, 'rain')).toContain('Expect rain.');
    expect(externalRequests).toEqual([]);
  });

  test('U183: editing the last message replaces it and its reply with a new turn', async ({
    page,
    shoot,
    externalRequests,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await startChat(page);
    await script(page, reply('It is Paris.'));
    await send(page, 'What is the capital of France?');
    await script(page, reply('Lisbon, for Portugal.'));
    await send(page, 'And of Spain?');
    // Only the latest message can be edited, only the latest reply regenerated.
    await expect(page.getByRole('button', { name: 'Edit message' })).toHaveCount(1);
    await expect(page.getByRole('button', { name: 'Regenerate reply' })).toHaveCount(1);

    const last = page.getByTestId('user-message').last();
    await last.getByRole('button', { name: 'Edit message' }).click();
    const editor = last.getByRole('textbox', { name: 'Edit your message' });
    await expect(editor).toBeFocused();
    await expect(editor).toHaveValue('And of Spain?');
    await dismissToast(page);
    await shoot(page, 'message-edit-spain-1280x800');
    // Escape cancels and gives the text back untouched.
    await editor.press('Escape');
    await expect(last).toContainText('And of Spain?');
    await expect(last.getByRole('button', { name: 'Edit message' })).toBeFocused();

    await last.getByRole('button', { name: 'Edit message' }).click();
    await editor.fill('And of Portugal?');
    await script(page, reply('It is Lisbon.'));
    await last.getByRole('button', { name: 'Send edited message' }).click();
    await expect(page.getByTestId('assistant-message').last()).toContainText('It is Lisbon.');
    // The editor went with the old message: the keyboard goes on in the composer.
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused();
    await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeVisible();
    await expect(page.getByTestId('user-message')).toHaveText([
      /What is the capital of France\?/,
      /And of Portugal\?/,
    ]);
    await expect(page.getByTestId('assistant-message')).toHaveText([
      /It is Paris\./,
      /It is Lisbon\./,
    ]);
    await expect(page.getByTestId('message-log')).not.toContainText('Spain');
    await expect.poll(() => recallSearch(page, 'Spain')).not.toContain('Spain');
    expect(externalRequests).toEqual([]);
  });

  test('U184: regenerate leaves exactly one reply to the message, the new one', async ({
    page,
    externalRequests,
  }) => {
    await startChat(page);
    // Each turn searches first, so each has a list of steps.
    const look = step('conversation_search', { query: 'joke' }, true, 'Look for old jokes.');
    await script(page, look, reply('Why did the owl stay in? It was a hoot.'));
    await send(page, 'Tell me a joke.');
    await expect(page.getByTestId('turn-steps')).toHaveCount(1);
    await script(page, look, reply('A second joke, about a penguin.'));
    const old = page.getByTestId('assistant-message').last();
    await old.getByRole('button', { name: 'Regenerate reply' }).click();
    await expect(page.getByTestId('assistant-message')).toHaveText([/about a penguin/]);
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused();
    await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeVisible();
    await expect(page.getByTestId('user-message')).toHaveCount(1);
    await expect(page.getByTestId('assistant-message')).toHaveCount(1);
    await expect(page.getByTestId('message-log')).not.toContainText('owl');
    // One list of steps: the old turn's records are history, not a second list in the chat.
    await expect(page.getByTestId('turn-steps')).toHaveCount(1);
    // After a reload it is still one reply.
    await page.reload();
    await expect(page.getByTestId('assistant-message')).toHaveText([/about a penguin/]);
    await expect(page.getByTestId('turn-steps')).toHaveCount(1);
    expect(externalRequests).toEqual([]);
  });

  test('U182/U186: the actions are reachable by keyboard and wait while a turn runs', async ({
    page,
    context,
    externalRequests,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const agentId = await startChat(page);
    await script(page, reply('Drink **water**.'));
    await send(page, 'Any advice?');
    const mine = page.getByTestId('user-message').last();
    const copy = mine.getByRole('button', { name: 'Copy message from you' });
    await copy.click();
    await expect(mine.getByRole('button', { name: 'Copied' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('Any advice?');
    // Tab goes along the row: Copy, Edit, Delete.
    await copy.focus();
    await page.keyboard.press('Tab');
    await expect(mine.getByRole('button', { name: 'Edit message' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(mine.getByRole('button', { name: 'Delete message from you' })).toBeFocused();
    const answer = page.getByTestId('assistant-message').last();
    await answer.getByRole('button', { name: 'Copy message from Juniper' }).press('Enter');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('Drink water.');

    // While a reply streams, nothing can be deleted, edited or regenerated.
    await setReplyReserve(page, agentId, 1500);
    await script(page, reply(longText('Sentence', 100)));
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Tell me more.');
    await box.press('Enter');
    await waitForStreaming(page, 'Sentence 1 of');
    await expect(
      answer.getByRole('button', { name: 'Delete message from Juniper' }),
    ).toBeDisabled();
    await expect(page.getByRole('button', { name: /^Delete message/ }).first()).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Edit message' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Regenerate reply' })).toHaveCount(0);
    await expect(page.getByTestId('assistant-message').last()).toContainText('Sentence 100', {
      timeout: 30_000,
    });
    await expect(page.getByRole('button', { name: 'Edit message' })).toBeEnabled();
    await expect(page.getByRole('button', { name: 'Regenerate reply' })).toBeEnabled();
    expect(externalRequests).toEqual([]);
  });

  for (const size of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    test(`U182: the action row at ${size.width}×${size.height}: visible without hover, no overflow, no serious axe violation`, async ({
      page,
      shoot,
      externalRequests,
    }) => {
      await page.setViewportSize(size);
      await startChat(page);
      await script(page, reply('Hello! How can I help today?'));
      await send(page, 'Hi Juniper.');
      await script(page, reply('A short walk after lunch helps.'));
      await send(page, 'Any tip for the afternoon slump?');
      await dismissToast(page);
      const row = page.getByTestId('assistant-message').last().getByRole('group');
      await expect(row.getByRole('button', { name: 'Regenerate reply' })).toBeVisible();
      await expect(
        page.getByTestId('user-message').last().getByRole('button', { name: 'Edit message' }),
      ).toBeVisible();
      // Each control is a 44 px target and nothing scrolls sideways.
      for (const button of await page.getByTestId('message-log').getByRole('button').all()) {
        const box = await button.boundingBox();
        expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);
      }
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      ).toBe(true);
      await shoot(page, `message-actions-${size.width}x${size.height}`);
      expect(await seriousViolations(page)).toEqual([]);

      // The inline editor fits the bubble at both sizes.
      const last = page.getByTestId('user-message').last();
      await last.getByRole('button', { name: 'Edit message' }).click();
      await expect(last.getByRole('textbox', { name: 'Edit your message' })).toBeFocused();
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      ).toBe(true);
      await shoot(page, `message-edit-${size.width}x${size.height}`);
      expect(await seriousViolations(page)).toEqual([]);
      await last.getByRole('button', { name: 'Cancel' }).click();

      await page
        .getByTestId('user-message')
        .first()
        .getByRole('button', { name: 'Delete message from you' })
        .click();
      await expect(page.getByTestId('undo-delete')).toBeVisible();
      await shoot(page, `message-actions-undo-${size.width}x${size.height}`);
      expect(await seriousViolations(page)).toEqual([]);
      expect(externalRequests).toEqual([]);
    });
  }
});
