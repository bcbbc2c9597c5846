/**
 * Issue 20 in Chromium: hostile input that used to take the app down for good.
 * X160 — a reply of deeply nested Markdown overflowed marked's stack inside the message bubble,
 * so the Chat screen rendered nothing after a reload, and a backup holding it could not be
 * opened; now it shows as plain text with a note and everything else keeps working.
 */
import { test, expect } from './fixtures';
import { createAgent, loadScriptedModel, reply, script, send } from './helpers/loci';

interface StoreWindow {
  __loci: { store: { apply(change: object): Promise<unknown> } };
}

const NESTED = `${'>'.repeat(4000)} deep reply`;

test('X160 (item 1): a reply nested thousands deep shows as plain text; the chat renders and replies after a reload and a backup round-trip', async ({
  page,
  externalRequests,
}, info) => {
  await page.goto('/#/chat');
  const agentId = await createAgent(page, 'Juniper');
  await page.evaluate(
    async ({ agentId, nested }) => {
      const store = (window as unknown as StoreWindow).__loci.store;
      const at = Date.now() - 60_000;
      await store.apply({
        messages: [
          {
            id: 'm-ask',
            agentId,
            role: 'user',
            text: 'Show me some nesting.',
            at,
            inContext: true,
            tokens: 6,
          },
          {
            id: 'm-nested',
            agentId,
            role: 'assistant',
            text: nested,
            // A reply as the live loop stores it: the text of its send_message step (R19).
            toolCall: { name: 'send_message', arguments: { message: nested } },
            at: at + 1,
            inContext: true,
            tokens: 900,
          },
        ],
      });
    },
    { agentId, nested: NESTED },
  );

  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.reload();
  const nested = page.getByTestId('assistant-message').filter({ hasText: 'deep reply' });
  await expect(nested).toContainText('Shown as plain text: it nests too deeply to format.');
  await expect(page.getByTestId('user-message')).toContainText('Show me some nesting.');

  // New messages still get a reply.
  await loadScriptedModel(page);
  await script(page, reply('Still here.'));
  await send(page, 'Are you there?');
  await expect(page.getByTestId('assistant-message').last()).toContainText('Still here.', {
    timeout: 30_000,
  });

  // A backup holding the reply exports, imports back, and the Chat screen opens with it.
  await page.goto('/#/settings');
  const backup = page.getByRole('region', { name: 'Backup' });
  const download = page.waitForEvent('download');
  await backup.getByRole('button', { name: 'Export everything' }).click();
  const file = info.outputPath('nested.json');
  await (await download).saveAs(file);
  await backup.getByLabel('Backup file to import').setInputFiles(file);
  await backup.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(backup.getByText(/^Restored 1 agent\b/)).toBeVisible();
  await page.goto('/#/chat');
  await page.reload();
  await expect(
    page.getByTestId('assistant-message').filter({ hasText: 'deep reply' }),
  ).toContainText('Shown as plain text');
  await expect(page.getByTestId('assistant-message').last()).toContainText('Still here.');
  expect(errors).toEqual([]);
  expect(externalRequests).toEqual([]);
});

test('X166 (item 9): a file name with a right-to-left override shows its characters in stored order', async ({
  page,
  externalRequests,
}) => {
  await page.goto('/#/chat');
  await createAgent(page, 'Juniper');
  await page.evaluate(() => (window.location.hash = '#/documents'));
  await expect(page.getByRole('heading', { name: 'Documents', level: 1 })).toBeVisible();
  await page.getByTestId('file-input').setInputFiles({
    name: 'invoice\u202Efdp.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('The harbour invoice is due in May.'),
  });
  await expect(page.locator('[data-testid="import-job"][data-stage="indexed"]')).toHaveCount(1, {
    timeout: 60_000,
  });
  const shown = await page.locator('main').innerText();
  expect(shown).toContain('invoice[U+202E]fdp');
  expect(shown).not.toContain('\u202E');
  expect(externalRequests).toEqual([]);
});
