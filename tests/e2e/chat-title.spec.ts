/**
 * Issue 37 item 3: which chat am I in? A title made of the conversation's words (not its
 * greeting), editable, shown above the conversation with the model that answers, and a reading
 * column that uses the space at 1280 px (U294, U295).
 */
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

/** A turn may wait for the embedding model to load (see `send`). */
const FIRST_TURN_MS = 90_000;
test.describe.configure({ timeout: 180_000 });

test('U294 U295: the chat is named after its first real question and shows its title and model above the messages', async ({
  page,
  shoot,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/#/chat');
  await createAgent(page, 'Juniper');
  await loadScriptedModel(page);
  await dismissToast(page);
  const header = page.getByTestId('chat-header');
  await expect(header.getByTestId('chat-model')).toContainText('Model: scripted');

  await script(
    page,
    reply('Hello! How can I help?'),
    reply('Gladly. Here is a speech full of warmth for your sister and her partner.'),
  );
  await send(page, 'Hello!', FIRST_TURN_MS);
  // A greeting names nothing yet.
  await expect(header.getByTestId('chat-title')).toHaveText('New chat');
  await send(page, 'Write my full wedding speech, about 600 words.', FIRST_TURN_MS);
  await expect(header.getByTestId('chat-title')).toHaveText('Write my full wedding speech');
  const row = page.getByTestId('conversation-row').first();
  await expect(row).toContainText('Write my full wedding speech');

  // The reading column uses the width: 520 px at 1280 px, where it had 440.
  const column = await page.getByTestId('message-log').boundingBox();
  expect(column?.width ?? 0).toBeGreaterThanOrEqual(500);
  await shoot(page, 'chat-title-1280x800');

  // Renaming shows above the conversation too.
  const list = page.getByTestId('conversation-list');
  await list.getByRole('button', { name: 'Rename “Write my full wedding speech”' }).click();
  await list.getByLabel('Title of “Write my full wedding speech”').fill('Mia’s wedding');
  await list.getByRole('button', { name: 'Save' }).click();
  await expect(header.getByTestId('chat-title')).toHaveText('Mia’s wedding');
});

for (const size of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`U295: the chat with its header passes axe at ${size.width}×${size.height}, ${scheme}`, async ({
      page,
      shoot,
    }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize(size);
      await page.goto('/#/chat');
      await createAgent(page, 'Juniper');
      await loadScriptedModel(page);
      await dismissToast(page);
      await script(page, reply('Gladly. Here is a first draft of the speech.'));
      await send(page, 'Write my full wedding speech, about 600 words.', FIRST_TURN_MS);
      await expect(page.getByTestId('chat-model')).toContainText('Model:');
      await shoot(page, `chat-title-${scheme}-${size.width}x${size.height}`);
      expect(await seriousViolations(page)).toEqual([]);
    });
  }
}
