/**
 * Recall what matters, not what fits (issue 33, ADR 0203; C6, C7, C27, A27, U321) in the built
 * e2e app: after a 30-turn chat of short messages no memory-pressure note is shown; a new chat's
 * "hello" carries at most 100 tokens of recalled memory; a question about facts told in the first
 * chat recalls the line that holds them. Real loop, store and search in Chromium; scripted model.
 */
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { createAgent, loadScriptedModel, reply, script, send } from './helpers/loci';

interface PlanRecord {
  step: number;
  prompt: number;
  memories: number;
  memoryText: string;
}

/** The e2e build's record of each context plan (src/app/e2e-build.ts). */
async function plans(page: Page): Promise<PlanRecord[]> {
  return page.evaluate(
    () => (window as unknown as { __loci: { plans: PlanRecord[] } }).__loci.plans,
  );
}

const SMALL_TALK = [
  'I went for a walk by the canal this morning.',
  'The weather was grey but warm enough.',
  'I had porridge with blueberries for breakfast.',
  'My neighbour was repainting his fence again.',
  'I read two chapters of a detective novel.',
  'The bus was late, so I cycled instead.',
  'Lunch was a lentil soup from the corner shop.',
  'I called my aunt; she is planning a garden party.',
  'Work was quiet, mostly emails and one meeting.',
  'I tried a new coffee place near the station.',
];

test('C6 C7 C27 A27: no pressure notes in a 30-turn chat, a quiet hello, and the fact recalled in a new chat', async ({
  page,
  shoot,
  externalRequests,
}) => {
  test.setTimeout(240_000);
  await page.goto('/#/chat');
  await createAgent(page, 'Juniper');
  await loadScriptedModel(page);

  // Thirty turns of short messages; the first tells two facts.
  await script(page, reply('Miso is a lovely name! And the Harbor Bakery sounds cosy.'));
  await send(page, 'My cat is called Miso and I work at the Harbor Bakery.');
  for (let i = 1; i < 30; i += 1) {
    await script(page, reply(`That sounds nice — tell me more (${i}).`));
    await send(page, `${SMALL_TALK[i % SMALL_TALK.length]} (${i})`);
  }
  await expect(page.getByTestId('assistant-message')).toHaveCount(30);
  // C6 C7: the warning comes only when a flush is near; thirty short turns are far from it.
  await expect(page.getByTestId('event-note')).toHaveCount(0);
  await expect(page.getByText(/core or archival memory|nearly full/)).toHaveCount(0);

  // A new chat: "hello" asks for nothing, so nothing is recalled for it (A27, C27).
  await page.getByRole('button', { name: 'New chat' }).first().click();
  await expect(page.getByTestId('user-message')).toHaveCount(0);
  const before = (await plans(page)).length;
  await script(page, reply('Hello again!'));
  await send(page, 'hello');
  await expect(page.getByTestId('assistant-message').last()).toContainText('Hello again!');
  const hello = (await plans(page)).slice(before);
  expect(hello.length).toBeGreaterThan(0);
  expect(hello[0]!.memories).toBeLessThanOrEqual(100);

  // A question about the first chat's facts recalls the line that holds them.
  const asked = (await plans(page)).length;
  await script(page, reply('Your cat is Miso, and you work at the Harbor Bakery.'));
  await send(page, "What's my cat called and where do I work?");
  await expect(page.getByTestId('assistant-message').last()).toContainText('Harbor Bakery');
  const question = (await plans(page)).slice(asked)[0]!;
  expect(question.memoryText).toContain('My cat is called Miso and I work at the Harbor Bakery.');
  // What recall costs stays within the recall budget (15 % of the window, C13).
  expect(question.memories).toBeGreaterThan(0);
  expect(question.memories).toBeLessThanOrEqual(0.15 * 8192);
  await shoot(page, 'recall-precision-new-chat-1280x800');
  await page.setViewportSize({ width: 390, height: 844 });
  await shoot(page, 'recall-precision-new-chat-390x844');
  expect(externalRequests).toEqual([]);
});
