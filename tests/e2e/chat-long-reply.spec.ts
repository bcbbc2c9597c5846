/**
 * Issue 37 item 1: a long reply may use the free window, one cut at the limit stays on screen
 * with Continue, and Continue appends the rest to the same bubble (A40, A41, U292).
 */
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import {
  createAgent,
  loadScriptedModelWith,
  reply,
  script,
  send,
  seriousViolations,
  setReplyReserve,
} from './helpers/loci';

/** A turn may wait for the embedding model to load (see `send`). */
const FIRST_TURN_MS = 90_000;
test.describe.configure({ timeout: 180_000 });

/** A 600-word wedding speech: 75 sentences of 8 words, each numbered. */
const SPEECH = Array.from(
  { length: 75 },
  (_, i) => `Part ${i + 1} of the speech, thank you all.`,
).join(' ');

interface StoreWindow {
  __loci: {
    store: {
      queryMessages(
        agentId: string,
        query: object,
      ): Promise<{ role: string; text: string; cut?: boolean }[]>;
    };
  };
}

/** The stored text of the agent's cut reply. */
async function cutText(page: Page, agentId: string): Promise<string> {
  return page.evaluate(async (id) => {
    const store = (window as unknown as StoreWindow).__loci.store;
    const all = await store.queryMessages(id, { roles: ['assistant'] });
    return all.find((m) => m.cut)?.text ?? '';
  }, agentId);
}

test('A40: a 600-word reply arrives whole when the window has room for it (no fixed 512-token step)', async ({
  page,
}) => {
  await page.goto('/#/chat');
  await createAgent(page, 'Juniper');
  await loadScriptedModelWith(page, {});
  await script(page, reply(SPEECH));
  await send(page, 'Write my full wedding speech, about 600 words.', FIRST_TURN_MS);
  const bubble = page.getByTestId('assistant-message').last();
  await expect(bubble).toContainText('Part 75 of the speech, thank you all.', { timeout: 30_000 });
  await expect(bubble).toContainText('Part 1 of the speech');
  await expect(bubble.getByTestId('reply-cut')).toHaveCount(0);
  await expect(page.getByText('could not use')).toHaveCount(0);
});

test('U292 A40 A41: a 600-word reply cut at the limit stays on screen; Continue appends the rest', async ({
  page,
  shoot,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/#/chat');
  const agentId = await createAgent(page, 'Juniper');
  // A small reserve: a step may generate 4 reserves (640 tokens), less than the speech needs.
  await setReplyReserve(page, agentId, 160);
  await loadScriptedModelWith(page, {});
  await script(page, reply(SPEECH));
  await send(page, 'Write my full wedding speech, about 600 words.', FIRST_TURN_MS);

  const bubble = page.getByTestId('assistant-message').last();
  await expect(bubble).toContainText('Part 1 of the speech');
  await expect(bubble.getByTestId('reply-cut')).toContainText('stopped at the length limit');
  const kept = await cutText(page, agentId);
  expect(kept.split(' ').length).toBeGreaterThan(300);
  expect(kept.length).toBeLessThan(SPEECH.length);
  expect(SPEECH.startsWith(kept)).toBe(true);
  await expect(page.getByText('could not use')).toHaveCount(0);
  await shoot(page, 'chat-long-reply-cut-1280x800');

  await script(page, reply(SPEECH.slice(kept.length)));
  await bubble.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeVisible({
    timeout: 30_000,
  });
  // One bubble holds the whole speech; the Continue request is not shown.
  await expect(page.getByTestId('assistant-message')).toHaveCount(1);
  await expect(bubble).toContainText('Part 75 of the speech, thank you all.');
  await expect(bubble).toContainText('Part 1 of the speech');
  await expect(bubble.getByTestId('reply-cut')).toHaveCount(0);
  await expect(page.getByTestId('event-note')).toHaveCount(0);
  await shoot(page, 'chat-long-reply-continued-1280x800');
});

for (const size of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`U292: the cut reply with Continue passes axe at ${size.width}×${size.height}, ${scheme}`, async ({
      page,
      shoot,
    }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize(size);
      await page.goto('/#/chat');
      const agentId = await createAgent(page, 'Juniper');
      await setReplyReserve(page, agentId, 160);
      await loadScriptedModelWith(page, {});
      await script(page, reply(SPEECH));
      await send(page, 'Write my full wedding speech, about 600 words.', FIRST_TURN_MS);
      await expect(page.getByRole('button', { name: 'Continue' })).toBeVisible();
      await page.getByRole('button', { name: 'Continue' }).scrollIntoViewIfNeeded();
      await shoot(page, `chat-long-reply-${scheme}-${size.width}x${size.height}`);
      expect(await seriousViolations(page)).toEqual([]);
    });
  }
}
