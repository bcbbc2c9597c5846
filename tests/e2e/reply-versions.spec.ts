/**
 * Reply versions (issue 37, U331, ADR 0213): Regenerate keeps the earlier reply, ‹ 1 / 3 ›
 * switches between them, and the version shown is the one kept — the next prompt reads it, recall
 * search finds it and no other, and a reload keeps it. E2e build: the real loop, store and search,
 * with the scripted engine.
 */
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import {
  createAgent,
  dismissToast,
  loadScriptedModel,
  recallSearch,
  reply,
  script,
  send,
  seriousViolations,
  step,
} from './helpers/loci';

interface PlansWindow {
  __loci: { plans: { promptText: string }[] };
}

const VERSIONS = [
  'Version one: the walrus waltzed home.',
  'Version two: the pelican painted a boat.',
  'Version three: the narwhal napped all day.',
];

/** Each version searches first, for words of its own: its steps say which version they belong to. */
const look = (i: number): string =>
  step('conversation_search', { query: `story number ${i + 1}` }, true, 'Look first.');

/** A chat whose one reply was regenerated twice: three versions, the newest shown. */
async function threeVersions(page: Page): Promise<void> {
  await page.goto('/#/chat');
  await createAgent(page, 'Juniper');
  await loadScriptedModel(page);
  await script(page, look(0), reply(VERSIONS[0]!));
  await send(page, 'Tell me a short story.');
  const answer = page.getByTestId('assistant-message');
  for (const [i, text] of VERSIONS.entries()) {
    if (i === 0) continue;
    await script(page, look(i), reply(text));
    await answer.last().getByRole('button', { name: 'Regenerate reply' }).click();
    await expect(answer).toHaveText([new RegExp(text.slice(0, 20))]);
  }
}

test.describe('reply versions', () => {
  test('U331: Regenerate keeps versions; the one switched to is what the model, recall and a reload see', async ({
    page,
    externalRequests,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await threeVersions(page);
    const answer = page.getByTestId('assistant-message');
    const pager = answer.getByTestId('reply-versions');
    await expect(pager).toContainText('3 / 3');
    await expect(pager.getByRole('button', { name: 'Next version' })).toBeDisabled();
    await pager.getByRole('button', { name: 'Previous version' }).click();
    await expect(pager).toContainText('2 / 3');
    await expect(answer).toHaveText([/the pelican painted/]);
    await pager.getByRole('button', { name: 'Previous version' }).click();
    await expect(pager).toContainText('1 / 3');
    await expect(answer).toHaveText([/the walrus waltzed/]);
    await expect(pager.getByRole('button', { name: 'Previous version' })).toBeDisabled();
    // One reply bubble and one list of steps: the kept version's.
    await expect(answer).toHaveCount(1);
    await expect(page.getByTestId('turn-steps')).toHaveCount(1);
    await expect(page.getByTestId('turn-steps')).toContainText('story number 1');

    // Recall search finds the kept version only.
    await expect.poll(() => recallSearch(page, 'walrus')).toContain('the walrus waltzed');
    await expect.poll(() => recallSearch(page, 'narwhal')).not.toContain('narwhal');
    await expect.poll(() => recallSearch(page, 'pelican')).not.toContain('pelican');

    // A reload reads the store: the kept version is still the one shown, with its place.
    await page.reload();
    await expect(answer).toHaveText([/the walrus waltzed/]);
    await expect(pager).toContainText('1 / 3');
    await expect.poll(() => recallSearch(page, 'narwhal')).not.toContain('narwhal');

    // The next message: the model reads version 1, not the others.
    await loadScriptedModel(page);
    await script(page, reply('And they all lived happily.'));
    await send(page, 'What happened next?');
    await expect(answer).toHaveText([/the walrus waltzed/, /lived happily/]);
    const prompt = await page.evaluate(
      () => (window as unknown as PlansWindow).__loci.plans.at(-1)!.promptText,
    );
    expect(prompt).toContain('the walrus waltzed home');
    expect(prompt).not.toContain('narwhal');
    expect(prompt).not.toContain('pelican');
    // Once the chat moved on the choice is final: no pager on the older reply.
    await expect(pager).toHaveCount(0);
    expect(externalRequests).toEqual([]);
  });

  test('U331: Delete of a reply with versions deletes the shown one and shows the newest other; Undo puts it back', async ({
    page,
    externalRequests,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await threeVersions(page);
    const answer = page.getByTestId('assistant-message');
    const pager = answer.getByTestId('reply-versions');
    await pager.getByRole('button', { name: 'Previous version' }).click();
    await expect(answer).toHaveText([/the pelican painted/]);
    await answer.getByRole('button', { name: 'Delete message from Juniper' }).click();
    await expect(answer).toHaveText([/the narwhal napped/]);
    await expect(pager).toContainText('2 / 2');
    await expect.poll(() => recallSearch(page, 'pelican')).not.toContain('pelican');
    await page.getByTestId('undo-delete').getByRole('button', { name: 'Undo' }).click();
    await expect(answer).toHaveText([/the pelican painted/]);
    await expect(pager).toContainText('2 / 3');
    await expect.poll(() => recallSearch(page, 'pelican')).toContain('the pelican painted');
    expect(externalRequests).toEqual([]);
  });

  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    for (const scheme of ['light', 'dark'] as const) {
      test(`U331: the version pager at ${width}×${height} (${scheme}): 44 px targets, no overflow, no serious axe violation`, async ({
        page,
        shoot,
        externalRequests,
      }) => {
        await page.setViewportSize({ width, height });
        await page.emulateMedia({ colorScheme: scheme });
        await threeVersions(page);
        const pager = page.getByTestId('reply-versions');
        await pager.getByRole('button', { name: 'Previous version' }).click();
        await expect(pager).toContainText('2 / 3');
        await dismissToast(page);
        for (const button of await pager.getByRole('button').all()) {
          const box = await button.boundingBox();
          expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);
          expect(box?.width ?? 0).toBeGreaterThanOrEqual(44);
        }
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
        ).toBe(true);
        await shoot(page, `reply-versions-${width}x${height}${scheme === 'dark' ? '-dark' : ''}`);
        expect(await seriousViolations(page)).toEqual([]);
        expect(externalRequests).toEqual([]);
      });
    }
  }
});
