/**
 * The writing screen and its interactive-fiction variant (rules U100–U112), driven through the UI
 * with the scripted engine: queued replies are the model's step objects, in call order.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { test, expect, waitForServiceWorker } from './fixtures';
import { loadScriptedModel, script, seriousViolations, waitForTestIdText } from './helpers/loci';

/** One writing step as `WRITER_STEP_SCHEMA` requires it. */
function writerStep(s: {
  section: string;
  memory: string;
  plans: [string, string, string];
  removed?: string;
  added?: string;
}): string {
  return JSON.stringify({
    section: s.section,
    memory_removed: s.removed ?? 'nothing',
    memory_added: s.added ?? 'the new section',
    memory: s.memory,
    plan_1: s.plans[0],
    plan_2: s.plans[1],
    plan_3: s.plans[2],
  });
}

/** One human-simulator step as `HUMAN_SIMULATOR_SCHEMA` requires it (choice is 1-based). */
const simulated = (choice: 1 | 2 | 3, plan: string, reason: string): string =>
  JSON.stringify({ choice, reason, plan });

const opening = Array.from(
  { length: 40 },
  (_, i) => `The lighthouse lamp turned slowly over the grey water, sentence ${i + 1}.`,
).join(' ');

/** Waits for the service worker; its "ready to work offline" notice waits for a model (U171). */
async function closeOfflineToast(page: Page): Promise<void> {
  await waitForServiceWorker(page);
  const toast = page.getByTestId('offline-ready');
  if (await toast.isVisible()) await toast.getByRole('button', { name: 'OK' }).click();
}

/** Creates an agent of `kind` through the welcome form of an empty app. */
async function createProject(page: Page, name: string, kind: string): Promise<void> {
  await page.goto('/#/chat');
  await closeOfflineToast(page);
  await page.getByLabel('Name').fill(name);
  await page.getByRole('radio', { name: new RegExp(kind) }).check();
  await page.getByRole('button', { name: 'Create agent' }).click();
  await expect(page.getByTestId('writer-start')).toBeVisible();
}

async function startProject(
  page: Page,
  input: { genre: string; topic: string; outline?: string },
  button: string,
): Promise<void> {
  await page.getByLabel('Genre or type').fill(input.genre);
  await page.getByLabel('Topic').fill(input.topic);
  if (input.outline) await page.getByLabel('Outline (optional)').fill(input.outline);
  await page.getByRole('button', { name: button }).click();
}

const sections = (page: Page) => page.getByTestId('writer-section');

test.describe('writing mode', () => {
  test('U100–U109: a writing project — opening, pick, edit, own plan, memory, autonomous, export', async ({
    page,
    shoot,
    externalRequests,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    await createProject(page, 'The Lighthouse', 'Writing project');
    // U100: without a model the screen says where to get one and cannot write.
    await expect(page.getByTestId('writer-no-model')).toContainText('No writing model is loaded');
    await expect(page.getByRole('button', { name: 'Write the opening' })).toBeDisabled();
    await loadScriptedModel(page);
    await expect(page.getByTestId('writer-no-model')).toHaveCount(0);

    // U101/U109: the opening streams as text, with Stop, then lands with three plans.
    await script(
      page,
      writerStep({
        section: opening,
        memory: 'Mara keeps the lighthouse alone. A signal came from the sea.',
        removed: 'nothing (first section)',
        added: 'Mara, the lighthouse, the signal',
        plans: [
          'Mara answers the signal with the lamp.',
          'A boat appears in the fog.',
          'Mara finds an old logbook in the tower.',
        ],
      }),
    );
    await startProject(
      page,
      {
        genre: 'literary mystery',
        topic: 'a lighthouse keeper who hears signals from the sea',
        outline: 'Act 1: the signal. Act 2: the boat. Act 3: the truth.',
      },
      'Write the opening',
    );
    await waitForTestIdText(page, 'streaming-section', 'sentence 1.');
    await expect(page.getByTestId('writer-stop')).toBeVisible();
    await expect(sections(page)).toHaveCount(1, { timeout: 30_000 });
    await expect(sections(page).first()).toContainText('sentence 40.');
    await expect(page.getByTestId('writer-plan')).toHaveCount(3);
    await expect(page.getByTestId('writer-genre')).toHaveText('literary mystery');
    await expect(page.getByTestId('writer-memory-update')).toContainText(
      'Mara, the lighthouse, the signal',
    );

    // U103: pick plan 2. The section is untrusted text: markup shows literally (U111).
    await script(
      page,
      writerStep({
        section: 'A boat came out of the fog. <img src=x onerror="window.__xss=1">',
        memory: 'Mara keeps the lighthouse. A boat came from the fog.',
        added: 'the boat',
        plans: ['The boat has no crew.', 'Mara rows out to the boat.', 'The signal stops.'],
      }),
    );
    await page.getByRole('button', { name: 'Write from plan 2' }).click();
    await expect(sections(page)).toHaveCount(2, { timeout: 30_000 });
    await expect(sections(page).nth(1)).toContainText('Plan (picked plan): A boat appears');
    await expect(sections(page).nth(1)).toContainText('<img src=x');
    await expect(page.getByTestId('manuscript').locator('img')).toHaveCount(0);
    expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();

    // U104: edit plan 1 and write from the edit.
    await script(
      page,
      writerStep({
        section: 'The boat was empty, its deck wet with fresh footprints.',
        memory: 'The boat is empty; someone walked on its deck.',
        plans: ['Mara follows the footprints.', 'The lamp goes dark.', 'A voice calls her name.'],
      }),
    );
    await page.getByRole('button', { name: 'Edit plan 1' }).click();
    await page.getByLabel('Edit plan 1').fill('The boat has no crew, only wet footprints.');
    await page.getByRole('button', { name: 'Write from edited plan' }).click();
    await expect(sections(page)).toHaveCount(3, { timeout: 30_000 });
    await expect(sections(page).nth(2)).toContainText(
      'Plan (edited plan): The boat has no crew, only wet footprints.',
    );

    // U105/U106: the user's own plan; the long-term paragraphs retrieved for it are listed.
    await script(
      page,
      writerStep({
        section: 'Mara climbed back to the lighthouse lamp and saw a light answer from the sea.',
        memory: 'A light answers Mara from the sea.',
        plans: ['Mara signals back.', 'Mara wakes the village.', 'The light comes closer.'],
      }),
    );
    await page.getByLabel('Or write your own plan').fill('Mara turns the lighthouse lamp slowly.');
    await page.getByRole('button', { name: 'Write from my plan' }).click();
    await expect(sections(page)).toHaveCount(4, { timeout: 30_000 });
    const retrieved = page.getByTestId('writer-retrieved');
    await expect(retrieved).toContainText('Mara turns the lighthouse lamp slowly.');
    await expect(retrieved.getByTestId('writer-retrieved-passage').first()).toContainText(
      'Section 1',
    );

    await page.getByRole('button', { name: 'Edit short-term memory' }).click();
    await page.getByRole('textbox', { name: 'Short-term memory' }).fill('Mara is not alone.');
    await page.getByRole('button', { name: 'Save memory' }).click();
    await expect(page.getByTestId('writer-memory-text')).toHaveText('Mara is not alone.');

    // U107: two autonomous steps; the log shows the picked plan and its revision.
    await script(
      page,
      simulated(2, 'Mara wakes the village at dawn.', 'The story needs other people.'),
      writerStep({
        section: 'At dawn Mara ran down to the village and knocked on every door.',
        memory: 'The village is awake.',
        plans: ['The mayor doubts her.', 'A child saw the light too.', 'The boat is gone.'],
      }),
      simulated(3, 'The boat has vanished from the shore.', 'Raise the mystery.'),
      writerStep({
        section: 'When they reached the shore, the boat had vanished.',
        memory: 'The boat vanished.',
        plans: ['Search the coves.', 'Ask the old fisherman.', 'Return to the tower.'],
      }),
    );
    await page.getByLabel('Steps').fill('2');
    await page.getByRole('button', { name: 'Run 2 steps' }).click();
    await expect(sections(page)).toHaveCount(6, { timeout: 30_000 });
    const log = page.getByTestId('writer-auto-entry');
    await expect(log).toHaveCount(2);
    await expect(log.first()).toContainText('picked plan 2');
    await expect(log.first()).toContainText('Proposed: Mara wakes the village.');
    await expect(log.first()).toContainText('Revised to: Mara wakes the village at dawn.');
    await expect(log.nth(1)).toContainText('Revised to: The boat has vanished from the shore.');
    await expect(page.getByTestId('writer-status')).toHaveText('Wrote 2 sections on its own.');

    // U108: the export downloads the manuscript as Markdown.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export Markdown' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('the-lighthouse.md');
    const markdown = await readFile(await download.path(), 'utf8');
    expect(markdown).toMatch(/^# The Lighthouse\n/);
    expect(markdown).toContain('literary mystery');
    const order = [
      'sentence 40.',
      'A boat came out of the fog.',
      'The boat was empty',
      'saw a light answer',
      'At dawn Mara ran',
      'the boat had vanished.',
    ].map((t) => markdown.indexOf(t));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);

    await page.getByRole('heading', { name: 'The Lighthouse' }).scrollIntoViewIfNeeded();
    await shoot(page, 'writer-1280x800');
    await page.getByTestId('writer-plans').scrollIntoViewIfNeeded();
    await shoot(page, 'writer-plans-1280x800');
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('heading', { name: 'The Lighthouse' }).scrollIntoViewIfNeeded();
    await shoot(page, 'writer-390x844');
    await page.getByTestId('writer-autonomous').scrollIntoViewIfNeeded();
    await shoot(page, 'writer-autonomous-390x844');
    expect(await seriousViolations(page)).toEqual([]);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
    );
    expect(overflow).toBe(false);

    // U100: the project persists: a reload reopens it where it was.
    await page.reload();
    await expect(sections(page)).toHaveCount(6);
    await expect(page.getByTestId('writer-plan').first()).toContainText('Search the coves.');
    await page.getByRole('button', { name: 'Go to the plans' }).click();
    await expect(page.getByRole('heading', { name: 'What comes next?' })).toBeFocused();
    expect(externalRequests).toEqual([]);
  });

  test('U110: interactive fiction — choose a choice, then type a free-form action', async ({
    page,
    shoot,
    externalRequests,
  }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: 390, height: 844 });
    await createProject(page, 'The Cellar', 'Interactive fiction');
    await loadScriptedModel(page);
    await shoot(page, 'fiction-start-390x844');
    expect(await seriousViolations(page)).toEqual([]);
    await script(
      page,
      writerStep({
        section: 'I wake on a cold stone floor. A single candle burns by the cellar stairs.',
        memory: 'I am locked in a cellar with a candle.',
        plans: ['I climb the stairs.', 'I take the candle.', 'I search the barrels.'],
      }),
    );
    await startProject(
      page,
      { genre: 'gothic mystery', topic: 'I wake up locked in the cellar of an old inn' },
      'Begin the story',
    );
    await expect(sections(page)).toHaveCount(1, { timeout: 30_000 });
    await expect(page.getByRole('heading', { name: 'What do I do next?' })).toBeVisible();
    await expect(page.getByTestId('writer-plan').nth(1)).toContainText('I take the candle.');

    // U109: Stop while the scene streams saves nothing.
    await script(
      page,
      writerStep({
        section: Array.from({ length: 40 }, (_, i) => `I climb step ${i + 1} in the dark.`).join(
          ' ',
        ),
        memory: 'I am on the stairs.',
        plans: ['I push the trapdoor.', 'I listen.', 'I go back down.'],
      }),
    );
    await page.getByRole('button', { name: 'Choose choice 1' }).click();
    await waitForTestIdText(page, 'streaming-section', 'I climb step 1 ');
    await page.getByTestId('writer-stop').click();
    await expect(page.getByTestId('writer-status')).toHaveText(
      'Stopped; the section in progress was not saved.',
    );
    await expect(sections(page)).toHaveCount(1);

    await script(
      page,
      writerStep({
        section: 'I lift the candle. Its light shows a door behind the barrels.',
        memory: 'I hold the candle. There is a hidden door.',
        plans: ['I open the door.', 'I listen at the door.', 'I go back to the stairs.'],
      }),
    );
    await page.getByRole('button', { name: 'Choose choice 2' }).click();
    await expect(sections(page)).toHaveCount(2, { timeout: 30_000 });
    await expect(sections(page).nth(1)).toContainText('My choice: I take the candle.');
    await expect(sections(page).nth(1)).toContainText('I lift the candle.');

    await script(
      page,
      writerStep({
        section: 'I knock three times. Someone on the other side knocks back.',
        memory: 'Someone is behind the hidden door.',
        plans: ['I call out.', 'I step back.', 'I blow out the candle.'],
      }),
    );
    await page.getByLabel('Or do something else').fill('I knock on the door three times.');
    await page.getByRole('button', { name: 'Do it' }).click();
    await expect(sections(page)).toHaveCount(3, { timeout: 30_000 });
    await expect(sections(page).nth(2)).toContainText(
      'What I did: I knock on the door three times.',
    );
    await expect(page.getByTestId('writer-screen')).toHaveAttribute('data-mode', 'fiction');

    // U102: a scene is edited in place and saved.
    await page.getByRole('button', { name: 'Edit scene 1' }).click();
    await page.getByLabel('Text of scene 1').fill('I wake on a cold stone floor, my hands tied.');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(sections(page).first()).toContainText('my hands tied.');
    await expect(page.getByTestId('writer-status')).toHaveText('Scene saved.');

    await page.getByTestId('writer-plans').scrollIntoViewIfNeeded();
    await shoot(page, 'fiction-390x844');
    await page.getByRole('heading', { name: 'The Cellar' }).scrollIntoViewIfNeeded();
    await shoot(page, 'fiction-top-390x844');
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByTestId('writer-plans').scrollIntoViewIfNeeded();
    await shoot(page, 'fiction-1280x800');
    expect(await seriousViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    await shoot(page, 'fiction-dark-1280x800');
    expect(await seriousViolations(page)).toEqual([]);
    expect(externalRequests).toEqual([]);
  });

  test('U113: two tabs on one project — a stale choice is not run, and a running tab holds the lock', async ({
    page,
    context,
    externalRequests,
  }) => {
    test.setTimeout(120_000);
    await createProject(page, 'Two Tabs', 'Writing project');
    await loadScriptedModel(page);
    await script(
      page,
      writerStep({ section: 'The first section.', memory: 'One.', plans: ['P1', 'P2', 'P3'] }),
    );
    await startProject(page, { genre: 'fable', topic: 'two tabs' }, 'Write the opening');
    await expect(sections(page)).toHaveCount(1, { timeout: 30_000 });

    const other = await context.newPage();
    await other.goto('/#/chat');
    await loadScriptedModel(other);
    await expect(sections(other)).toHaveCount(1);

    await script(
      page,
      writerStep({ section: 'Written in tab one.', memory: 'Two.', plans: ['Q1', 'Q2', 'Q3'] }),
    );
    await page.getByRole('button', { name: 'Write from plan 1' }).click();
    await expect(sections(page)).toHaveCount(2, { timeout: 30_000 });

    // The second tab still shows P1–P3: its choice is stale, so it reloads instead of writing.
    await script(
      other,
      writerStep({ section: 'Written in tab two.', memory: 'Three.', plans: ['R1', 'R2', 'R3'] }),
    );
    await other.getByRole('button', { name: 'Write from plan 2' }).click();
    await expect(other.getByTestId('writer-problem')).toContainText(
      'This project changed in another tab.',
    );
    await expect(sections(other)).toHaveCount(2);
    await expect(other.getByTestId('writer-plan').nth(1)).toContainText('Q2');
    await other.getByRole('button', { name: 'Write from plan 2' }).click();
    await expect(sections(other)).toHaveCount(3, { timeout: 30_000 });
    await expect(sections(other).nth(2)).toContainText('Written in tab two.');

    // While the first tab writes, the second cannot.
    await page.reload();
    await loadScriptedModel(page);
    await expect(sections(page)).toHaveCount(3);
    await script(
      page,
      writerStep({
        section: Array.from({ length: 40 }, (_, i) => `Slow line ${i + 1}.`).join(' '),
        memory: 'Four.',
        plans: ['S1', 'S2', 'S3'],
      }),
    );
    await page.getByRole('button', { name: 'Write from plan 1' }).click();
    await expect(page.getByTestId('writer-stop')).toBeVisible();
    await other.getByRole('button', { name: 'Write from plan 3' }).click();
    await expect(other.getByTestId('writer-problem')).toContainText(
      'This project is being written in another tab.',
    );
    await expect(sections(page)).toHaveCount(4, { timeout: 30_000 });
    await other.close();
    expect(externalRequests).toEqual([]);
  });
});
