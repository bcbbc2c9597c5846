/**
 * Issue 20, "Done means": the longest main-thread task (PerformanceObserver 'longtask') while
 * the app handles huge input — a one-line text file, HTML with unclosed tags, and a chat of
 * 1 MB messages. CI sizes by default; the sizes with LOCI_RELIABILITY_FULL=1.
 */
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { createAgent, dismissToast } from './helpers/loci';
import { FULL, reportReliability } from './helpers/reliability';
import { startTaskTrace, stopTaskTrace, type MainThreadTasks } from './helpers/main-thread-cpu';
import { observeLongTasks } from './helpers/long-tasks';

const LIMIT_MS = 200;

/**
 * Records every stage text an import job shows (`window.__stages`), so the test can tell that
 * progress was on screen while the file was parsed (X179).
 */
async function observeStages(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __stages: string[] };
    w.__stages = [];
    new MutationObserver(() => {
      for (const el of document.querySelectorAll('[data-testid="import-job"] [role="status"]')) {
        const text = el.textContent?.trim() ?? '';
        if (text !== '' && w.__stages.at(-1) !== text) w.__stages.push(text);
      }
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
}

const longest = (page: Page): Promise<number> =>
  page.evaluate(() => (window as unknown as { __longest: number }).__longest);
const resetLongest = (page: Page): Promise<void> =>
  page.evaluate(() => void ((window as unknown as { __longest: number }).__longest = 0));

test('X173, X191: importing a one-line text file and HTML with unclosed tags never blocks the page long', async ({
  page,
  browser,
}) => {
  test.setTimeout(FULL ? 900_000 : 180_000);
  await observeLongTasks(page);
  await observeStages(page);
  await page.goto('/#/chat');
  await createAgent(page, 'Juniper');
  await page.evaluate(() => (window.location.hash = '#/documents'));
  await expect(page.getByRole('heading', { name: 'Documents', level: 1 })).toBeVisible();
  await dismissToast(page);
  const textMb = Number(process.env.LOCI_LONGTASK_TEXT_MB ?? (FULL ? 50 : 2));
  const tags = FULL ? 100_000 : 20_000;
  // The files are built in the page and handed to the file input there: Playwright's own
  // `setInputFiles` decodes the bytes in one page task (about 0.3 s per 2 MB), which the
  // observer would count against the app.
  const files = [
    { name: 'one-line.txt', type: 'text/plain', unit: 'harbour ', times: textMb * 131_072 },
    {
      name: 'unclosed.html',
      type: 'text/html',
      head: '<p>start</p>',
      unit: '<div><span>cell ',
      times: tags,
      tail: '<p>end</p>',
    },
  ];
  const figures: Record<string, number> = {};
  const cpu: Record<string, MainThreadTasks> = {};
  const shown: Record<string, string[]> = {};
  for (const file of files) {
    await page.evaluate((f) => {
      const text = `${f.head ?? ''}${f.unit.repeat(f.times)}${f.tail ?? ''}`;
      (window as unknown as { __file: File }).__file = new File([text], f.name, { type: f.type });
    }, file);
    // Let the observer report the page's own task of building the file before counting.
    await page.waitForTimeout(300);
    await resetLongest(page);
    // X191: the same tasks' CPU time, from a trace, tells the app's work from a wait for a core.
    await startTaskTrace(browser, page);
    await page.evaluate(() => {
      const input = document.querySelector<HTMLInputElement>('[data-testid="file-input"]')!;
      const transfer = new DataTransfer();
      transfer.items.add((window as unknown as { __file: File }).__file);
      input.files = transfer.files;
      input.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await expect(
      page
        .locator('[data-testid="import-job"][data-stage="indexed"]')
        .filter({ hasText: file.name }),
    ).toHaveCount(1, { timeout: FULL ? 800_000 : 150_000 });
    figures[file.name] = Math.round(await longest(page));
    cpu[file.name] = await stopTaskTrace(browser);
    shown[file.name] = await page.evaluate(() => {
      const w = window as unknown as { __stages: string[] };
      const seen = w.__stages;
      w.__stages = [];
      return seen;
    });
  }
  const over = Object.values(figures).filter((ms) => ms > LIMIT_MS).length;
  reportReliability({
    name: 'longest-task-import',
    rule: 'X173',
    trials: files.length,
    failures: over,
    lost: 0,
    details: {
      textMb,
      tags,
      ...Object.fromEntries(Object.entries(figures).map(([k, v]) => [`${k} longest ms`, v])),
      ...Object.fromEntries(
        Object.entries(cpu).map(([k, v]) => [
          `${k} longest task cpu ms`,
          Math.round(v.longestCpuMs),
        ]),
      ),
    },
  });
  console.log('longest tasks (ms):', JSON.stringify(figures));
  console.log(
    'longest main-thread task CPU (ms):',
    JSON.stringify(
      Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, Math.round(v.longestCpuMs)])),
    ),
  );
  // X179: the job showed its progress while the file was read and split, not only at the end.
  for (const [name, stages] of Object.entries(shown)) {
    expect(
      stages.some((t) => /^Reading \d+%$/.test(t)),
      `${name}: ${stages.join(' | ')}`,
    ).toBe(true);
    expect(
      stages.some((t) => /^Splitting into passages \d+%$/.test(t)),
      `${name}: ${stages.join(' | ')}`,
    ).toBe(true);
  }
  // The page's import went through the document worker (X177), not the page's fallback (X178).
  expect(page.workers().some((w) => w.url().includes('document.worker'))).toBe(true);
  await expect(page.getByTestId('reading-on-page')).toHaveCount(0);
  // Today's 200 ms target is counted above; this bound is what the test enforces on a shared CI
  // machine. Before issue 20 the one-line file blocked for tens of seconds (quadratic chunking).
  for (const [name, ms] of Object.entries(figures)) expect(ms, name).toBeLessThan(1_500);
  // X191: the app's own work in any one main-thread task stays within the 200 ms at any
  // size and any load: CPU time does not grow while the thread waits for a core.
  for (const [name, tasks] of Object.entries(cpu)) {
    expect(tasks.timedTasks, `${name}: tasks with a CPU time in the trace`).toBeGreaterThan(0);
    expect(tasks.longestCpuMs, name).toBeLessThan(LIMIT_MS);
  }
});

test('X173: opening a chat of 1 MB messages never blocks the page long', async ({ page }) => {
  test.setTimeout(FULL ? 900_000 : 180_000);
  await observeLongTasks(page);
  await page.goto('/#/chat');
  const agentId = await createAgent(page, 'Juniper');
  const count = FULL ? 200 : 6;
  // Written ten to a transaction: the open chat's live query reads its window again after each
  // one, and 200 single writes (40 GB decoded in all) took over 15 minutes on a loaded machine.
  // Only the reload below is measured.
  for (let first = 0; first < count; first += 10) {
    await page.evaluate(
      async ({ agentId, first, last }) => {
        const store = (
          window as unknown as { __loci: { store: { apply(c: object): Promise<unknown> } } }
        ).__loci.store;
        const messages = [];
        for (let i = first; i < last; i += 1) {
          const text = `Message ${i}. ${'All the words of a long letter. '.repeat(32_768)}`;
          messages.push({
            id: `big-${i}`,
            agentId,
            role: i % 2 ? 'assistant' : 'user',
            text,
            ...(i % 2 ? { toolCall: { name: 'send_message', arguments: { message: text } } } : {}),
            at: Date.now() - 60_000 + i,
            inContext: false,
            tokens: 250_000,
          });
        }
        await store.apply({ messages });
      },
      { agentId, first, last: Math.min(count, first + 10) },
    );
  }
  await page.reload();
  // A cheap check in the page: Playwright's `getByText` matches the text of every element on
  // each poll (a 1,193 ms task of its own at 200 bubbles of 20,000 characters, in a trace), and
  // the observer would count it against the app (as X174 says of `setInputFiles`).
  await page.waitForFunction(
    (n) => {
      const bubbles = document.querySelectorAll('[data-testid="message-log"] article');
      const last = bubbles[bubbles.length - 1]?.textContent?.includes(`Message ${n - 1}.`);
      return bubbles.length === n && last === true;
    },
    count,
    { timeout: 120_000 },
  );
  // The chat shows its bubbles a few per frame (X189) and loads the recall index after: the
  // measurement goes on until those are done.
  await page.waitForTimeout(2_000);
  const ms = Math.round(await longest(page));
  await expect(page.locator('[data-testid="message-log"] article').last()).toBeInViewport();
  reportReliability({
    name: 'longest-task-chat',
    rule: 'X173',
    trials: 1,
    failures: ms > LIMIT_MS ? 1 : 0,
    lost: 0,
    details: { messages: count, 'message MB': 1, 'longest ms': ms },
  });
  console.log('longest task opening the chat (ms):', ms);
  expect(ms).toBeLessThan(1_500);
});
