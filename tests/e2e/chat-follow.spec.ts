/**
 * The chat follows the conversation (U150–U152): after a very long message and 30 turns the newest
 * reply is still on screen, sending always returns to the bottom, and a reader who scrolled up
 * keeps their place and gets a "new messages" button instead of being pulled down.
 */
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { createAgent, dismissToast, loadScriptedModel, reply, script, send } from './helpers/loci';

/** Whether the last element matching `selector` is fully inside the message log's visible area. */
async function lastInView(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((sel) => {
    const log = document.querySelector('[data-testid="message-log"]');
    const all = document.querySelectorAll(sel);
    const last = all[all.length - 1];
    if (!log || !last) return false;
    const l = log.getBoundingClientRect();
    const r = last.getBoundingClientRect();
    // The bottom edge of the last message is what a reader needs to see (the reply's end).
    return r.bottom <= l.bottom + 1 && r.bottom >= l.top;
  }, selector);
}

/** Pixels between the bottom of the log's content and the bottom of its view. */
async function distanceFromBottom(page: Page): Promise<number> {
  return page
    .getByTestId('message-log')
    .evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
}

const LONG_WORD = 'x'.repeat(400);
/** About 2,000 characters: sentences and one unbroken word, as a pasted log line would be. */
const LONG_MESSAGE =
  Array.from({ length: 40 }, (_, i) => `Line ${i + 1} of a very long pasted note.`).join(' ') +
  ` ${LONG_WORD} ` +
  Array.from({ length: 12 }, (_, i) => `Tail ${i + 1} of the note.`).join(' ');

for (const [w, h] of [
  [1280, 800],
  [390, 844],
] as const) {
  test(`U150: after a 2,000-character message and 30 turns the last reply is in view at ${w}x${h}`, async ({
    page,
    shoot,
    externalRequests,
  }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width: w, height: h });
    await page.goto('/#/chat');
    await createAgent(page, 'Juniper');
    await loadScriptedModel(page);
    await dismissToast(page);
    expect(LONG_MESSAGE.length).toBeGreaterThanOrEqual(2000);
    await script(page, reply(`Thank you for the note. ${LONG_WORD.slice(0, 300)} That is all.`));
    await send(page, LONG_MESSAGE);
    await expect.poll(() => lastInView(page, '[data-testid="assistant-message"]')).toBe(true);
    for (let turn = 2; turn <= 30; turn += 1) {
      await script(page, reply(`Reply number ${turn}. ` + 'A sentence of the reply. '.repeat(6)));
      await send(page, `Message number ${turn}.`);
      await expect(page.getByTestId('assistant-message').last()).toContainText(
        `Reply number ${turn}.`,
      );
    }
    await expect.poll(() => lastInView(page, '[data-testid="assistant-message"]')).toBe(true);
    expect(await distanceFromBottom(page)).toBeLessThan(4);
    await expect(page.getByTestId('jump-to-latest')).toHaveCount(0);
    await shoot(page, `chat-30-turns-${w}x${h}`);
    expect(externalRequests).toEqual([]);
  });
}

/** Writes an assistant message straight to the store, as another tab's turn would (U9). */
async function arriveFromElsewhere(page: Page, text: string): Promise<void> {
  await page.evaluate(async (t) => {
    const loci = (
      window as unknown as {
        __loci: {
          agents: { activeId: string };
          store: { apply(c: object): Promise<unknown> };
        };
      }
    ).__loci;
    await loci.store.apply({
      messages: [
        {
          id: `msg_elsewhere_${Date.now()}`,
          agentId: loci.agents.activeId,
          role: 'assistant',
          text: t,
          toolCall: { name: 'send_message', arguments: { message: t } },
          at: Date.now(),
          inContext: true,
          tokens: 20,
        },
      ],
    });
  }, text);
}

test('U151/U152: scrolled up, new replies keep the view still and a button brings them; sending returns to the bottom', async ({
  page,
  shoot,
  externalRequests,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/#/chat');
  await createAgent(page, 'Juniper');
  await loadScriptedModel(page);
  await dismissToast(page);
  for (let turn = 1; turn <= 6; turn += 1) {
    await script(page, reply(`Reply ${turn}. ` + 'Some words to make it tall. '.repeat(8)));
    await send(page, `Message ${turn}.`);
  }
  const log = page.getByTestId('message-log');
  const jump = page.getByTestId('jump-to-latest');
  // The reader scrolls up with the mouse wheel to read an earlier reply.
  await log.hover();
  await page.mouse.wheel(0, -1500);
  await expect.poll(() => distanceFromBottom(page)).toBeGreaterThan(300);
  await expect(jump).toBeVisible();
  await expect(jump).toHaveAccessibleName('Jump to the latest message');
  const top = await log.evaluate((el) => el.scrollTop);

  // A reply arrives from another tab (a live write): the view stays where the reader is, and the
  // button says something new is below.
  await arriveFromElsewhere(page, 'A reply that arrives while you read. '.repeat(6));
  await expect(jump).toHaveAccessibleName('1 new message: jump to the latest');
  expect(Math.abs((await log.evaluate((el) => el.scrollTop)) - top)).toBeLessThan(2);
  await shoot(page, 'chat-scrolled-up-390x844');

  // Sending from the composer always returns to the bottom, even when scrolled up.
  await script(page, reply('Here is the answer to one more.'));
  await send(page, 'One more.');
  await expect.poll(() => distanceFromBottom(page)).toBeLessThan(4);
  await expect(jump).toHaveCount(0);

  // Scroll up again; the button brings the reader back down to the newest message.
  await page.mouse.wheel(0, -1500);
  await expect.poll(() => distanceFromBottom(page)).toBeGreaterThan(300);
  await jump.click();
  await expect.poll(() => distanceFromBottom(page)).toBeLessThan(4);
  await expect(jump).toHaveCount(0);
  expect(await lastInView(page, '[data-testid="assistant-message"]')).toBe(true);
  expect(externalRequests).toEqual([]);
});
