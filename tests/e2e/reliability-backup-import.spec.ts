/**
 * Issue 20 (X186): the longest main-thread task (PerformanceObserver 'longtask') while a backup
 * of many small messages is imported through Settings → Backup. CI size by default (20,000
 * messages); the issue's 1,000,000 with LOCI_RELIABILITY_FULL=1; LOCI_BACKUP_MESSAGES overrides.
 * The file is built in the page (ADR 0165) so that what is measured is the app. The file is read
 * in the backup worker (X187) and the card shows the import's progress (X188).
 */
import { test, expect } from './fixtures';
import { exportSeededBackup, storedMessages } from './helpers/backup-template';
import { startTaskTrace, stopTaskTrace } from './helpers/main-thread-cpu';
import { FULL, reportReliability } from './helpers/reliability';

const LIMIT_MS = 200;
const MESSAGES = Number(process.env.LOCI_BACKUP_MESSAGES ?? (FULL ? 1_000_000 : 20_000));
/**
 * The CPU-time trace is taken up to this size: every IndexedDB request is a task, and at 200,000
 * messages the trace's JSON passes V8's longest string (it cannot be read back).
 */
const TRACE_MESSAGES = 50_000;
const TRACED = MESSAGES <= TRACE_MESSAGES;

test('X186 X187 X188: importing a backup of many small messages; the longest task is measured and progress shown', async ({
  page,
  browser,
}, info) => {
  test.setTimeout(FULL ? 1_800_000 : 240_000);
  await page.addInitScript(() => {
    const w = window as unknown as { __longest: number };
    w.__longest = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__longest = Math.max(w.__longest, entry.duration);
    }).observe({ type: 'longtask', buffered: true });
    // What the longest frame ran (Long Animation Frames): its scripts by source and function,
    // so a long task over the limit names its cause rather than only its length.
    const f = window as unknown as { __longestFrame: { duration: number; scripts: string[] } };
    f.__longestFrame = { duration: 0, scripts: [] };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        scripts?: {
          duration: number;
          invoker: string;
          sourceURL: string;
          sourceFunctionName: string;
        }[];
      })[]) {
        if (entry.duration <= f.__longestFrame.duration) continue;
        f.__longestFrame = {
          duration: entry.duration,
          scripts: (entry.scripts ?? []).map(
            (s) =>
              `${Math.round(s.duration)} ms ${s.invoker} ${s.sourceFunctionName || '?'} (${s.sourceURL.split('/').pop()})`,
          ),
        };
      }
    }).observe({ type: 'long-animation-frame', buffered: true });
    // Every line the backup card's import status shows, in order (X188).
    const s = window as unknown as { __lines: string[] };
    s.__lines = [];
    new MutationObserver(() => {
      const status = [...document.querySelectorAll('[role="status"]')].find((el) =>
        /^(Reading|Checking|Preparing|Comparing|Importing|Restored)/.test(
          el.textContent?.trim() ?? '',
        ),
      );
      const text = status?.textContent?.trim() ?? '';
      if (text !== '' && s.__lines.at(-1) !== text) s.__lines.push(text);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  const { agentId, template } = await exportSeededBackup(page, info, 'Juniper');
  const backup = page.getByRole('region', { name: 'Backup' });

  // Builds the big file in the page from the template's one message.
  await page.evaluate(
    ({ template, count }) => {
      const value = JSON.parse(template) as {
        tables: { messages: Array<Record<string, unknown>> };
      };
      const seed = value.tables.messages.find((m) => m.id === 'seed-0')!;
      const at = seed.at as number;
      value.tables.messages = Array.from({ length: count }, (_, i) => ({
        ...seed,
        id: `m-${i}`,
        role: i % 2 ? 'assistant' : 'user',
        text: `Message ${i}: a short line of the log.`,
        at: at + i,
        seq: i + 1,
      }));
      const file = new File([JSON.stringify(value)], 'big-backup.json', {
        type: 'application/json',
      });
      (window as unknown as { __file: File }).__file = file;
    },
    { template, count: MESSAGES },
  );
  // Building the file leaves the page's heap full of the builder's garbage (the template's
  // copies, the JSON text): collect it now, so that the import is not charged for it.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.detach();
  await page.waitForTimeout(300);
  await page.evaluate(() => {
    const w = window as unknown as {
      __longest: number;
      __file: File;
      __longestFrame: { duration: number; scripts: string[] };
    };
    w.__longest = 0;
    w.__longestFrame = { duration: 0, scripts: [] };
    const input = document.querySelector<HTMLInputElement>('input[type="file"][accept*="json"]')!;
    const transfer = new DataTransfer();
    transfer.items.add(w.__file);
    input.files = transfer.files;
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
  // The same tasks' CPU time, from a trace (X191, ADR 0174), tells the app's work from a wait
  // for a core on a loaded machine.
  if (TRACED) await startTaskTrace(browser, page);
  const started = Date.now();
  await backup.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(backup.getByText(/^Restored 1 agent\b/)).toBeVisible({
    timeout: FULL ? 1_700_000 : 200_000,
  });
  const seconds = (Date.now() - started) / 1000;
  const ms = Math.round(
    await page.evaluate(() => {
      const w = window as unknown as { __longest: number };
      const longest = w.__longest;
      w.__longest = 0;
      return longest;
    }),
  );
  const frame = await page.evaluate(
    () =>
      (window as unknown as { __longestFrame: { duration: number; scripts: string[] } })
        .__longestFrame,
  );
  const cpu = TRACED ? await stopTaskTrace(browser) : null;
  const cpuMs = cpu ? Math.round(cpu.longestCpuMs) : 'not traced';
  // What runs after the summary is shown (the active agent's search indexes are rebuilt from the
  // new rows, X181) is reported on its own: it is not the import, but the user waits on it too.
  await page.waitForTimeout(3_000);
  const afterMs = Math.round(
    await page.evaluate(() => (window as unknown as { __longest: number }).__longest),
  );
  const stored = await storedMessages(page, agentId);
  const lines = await page.evaluate(() => (window as unknown as { __lines: string[] }).__lines);
  reportReliability({
    name: 'longest-task-backup-import',
    rule: 'X186',
    trials: 1,
    failures: ms > LIMIT_MS ? 1 : 0,
    lost: MESSAGES - stored,
    details: {
      messages: MESSAGES,
      'longest ms': ms,
      'longest task cpu ms': cpuMs,
      'after import longest ms': afterMs,
      'import s': Math.round(seconds),
    },
  });
  console.log(
    `backup import of ${MESSAGES} messages: longest task ${ms} ms (cpu ${cpu ? `${cpuMs} ms` : 'not traced'}; ${afterMs} ms in the 3 s after), ${seconds.toFixed(1)} s`,
  );
  console.log(
    `longest frame ${Math.round(frame.duration)} ms; its scripts: ${frame.scripts.join('; ') || 'none (no script: layout, style or garbage collection)'}`,
  );
  console.log(
    `progress lines shown: ${lines.length} (${lines.slice(0, 3).join(' | ')} … ${lines.at(-1)})`,
  );
  expect(stored).toBe(MESSAGES);
  // X188: the card said how far the import was while it ran, not only at the end.
  expect(
    lines.some((t) => /^Importing messages \d+%$/.test(t)),
    lines.join(' | '),
  ).toBe(true);
  expect(lines.indexOf('Checking the file…'), lines.join(' | ')).toBeGreaterThanOrEqual(0);
  // The app's own work in any one main-thread task stays within the issue's 200 ms (X191).
  if (cpu) {
    expect(cpu.timedTasks, 'tasks with a CPU time in the trace').toBeGreaterThan(0);
    expect(cpu.longestCpuMs).toBeLessThan(LIMIT_MS);
  }
  // X187: the file was read in the backup worker, not on the page.
  expect(page.workers().some((w) => w.url().includes('backup.worker'))).toBe(true);
});
