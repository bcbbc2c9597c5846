/**
 * X240–X242: the backup worker killed mid-import leaves nothing half-written. The device holds an
 * agent with one message; the file holds the same agent renamed with many messages, so the
 * import replaces it in one transaction. At a seeded moment of each import — while the file is
 * checked, while ids are compared, or at a seeded percentage of the messages written — the
 * worker is terminated from the page (a test wrapper keeps every backup `Worker` the app makes).
 * Then the store must be exactly as before or exactly the whole import (every table of the
 * agent, by content), the card must say in plain words that nothing was imported, and Import
 * again must restore the whole file. A few kills hit an export too: no file, a plain sentence,
 * and a retry that saves the whole file.
 *
 * Full size (`LOCI_RELIABILITY_FULL=1`): 20 import kills and 4 export kills; CI: 3 and 1.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { exportSeededBackup } from './helpers/backup-template';
import { FULL, reportReliability, seeded } from './helpers/reliability';

const IMPORT_KILLS = Number(process.env.LOCI_BACKUP_KILLS ?? (FULL ? 20 : 3));
const EXPORT_KILLS = FULL ? 4 : 1;
const MESSAGES = FULL ? 20_000 : 3_000;

type KillWindow = { __backupWorkers: Worker[] };

/** Keeps every backup worker the app creates, so the test can terminate it. */
async function watchBackupWorkers(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const Native = window.Worker;
    const kept: Worker[] = [];
    (window as unknown as KillWindow).__backupWorkers = kept;
    window.Worker = class extends Native {
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        if (String(url).includes('backup')) kept.push(this);
      }
    };
  });
}

/**
 * Every table's rows of `agentId` (the agent's own row for `agents`, and all settings), each
 * reduced to a count and a hash of its rows' JSON in key order. Auto-increment row ids of
 * vectors are left out: they number rows, not content.
 */
function fingerprint(page: Page, agentId: string): Promise<Record<string, string>> {
  return page.evaluate(async (agentId) => {
    type Table = {
      name: string;
      schema: { idxByName: Record<string, unknown> };
      where(k: string): { equals(v: string): { toArray(): Promise<unknown[]> } };
      toArray(): Promise<unknown[]>;
      get(k: string): Promise<unknown>;
    };
    const db = (window as unknown as { __loci: { store: { db: { tables: Table[] } } } }).__loci
      .store.db;
    const hash = (text: string) => {
      let h = 0x811c9dc5;
      for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
      return (h >>> 0).toString(16);
    };
    const out: Record<string, string> = {};
    for (const table of db.tables) {
      const rows =
        table.name === 'agents'
          ? [await table.get(agentId)].filter((r) => r !== undefined)
          : 'agentId' in table.schema.idxByName
            ? await table.where('agentId').equals(agentId).toArray()
            : await table.toArray();
      const texts = rows
        .map((row) =>
          JSON.stringify(row, (key, value: unknown) => (key === 'rowId' ? undefined : value)),
        )
        .sort();
      out[table.name] = `${texts.length}:${hash(texts.join('\n'))}`;
    }
    return out;
  }, agentId);
}

/** Puts `text` in the backup card's file input, as a file the user picked. */
async function chooseFile(page: Page, text: string, name: string): Promise<void> {
  await page.evaluate(
    ({ text, name }) => {
      const input = document.querySelector<HTMLInputElement>('input[type="file"][accept*="json"]')!;
      const transfer = new DataTransfer();
      transfer.items.add(new File([text], name, { type: 'application/json' }));
      input.files = transfer.files;
      input.dispatchEvent(new Event('change', { bubbles: true }));
    },
    { text, name },
  );
}

type Moment = { phase: 'checking' | 'comparing' | 'writing'; percent: number };

/**
 * Waits in the page until the backup card's status line reaches `moment`, then terminates every
 * backup worker at once (no round trip to the test in between). Resolves with the line seen, or
 * null when the import ended first.
 */
function killAt(page: Page, moment: Moment): Promise<string | null> {
  return page.evaluate(
    ({ phase, percent }) =>
      new Promise<string | null>((resolve) => {
        const pattern =
          phase === 'checking'
            ? /^Checking the file…$/
            : phase === 'comparing'
              ? /^Comparing with this device (\d+)%$/
              : /^Importing messages (\d+)%$/;
        const card = document.querySelector('section.backup')!;
        const check = (): boolean => {
          const line = [...card.querySelectorAll('p.message')].map((p) => p.textContent?.trim());
          const hit = line.find((text) => {
            const m = text ? pattern.exec(text) : null;
            return m !== null && (m[1] === undefined || Number(m[1]) >= percent);
          });
          if (hit !== undefined) {
            for (const worker of (window as unknown as KillWindow).__backupWorkers)
              worker.terminate();
            resolve(hit);
            return true;
          }
          if (
            line.some((text) => text?.startsWith('Restored')) ||
            card.querySelector('[role=alert]')
          ) {
            resolve(null);
            return true;
          }
          return false;
        };
        if (check()) return;
        const observer = new MutationObserver(() => {
          if (check()) observer.disconnect();
        });
        observer.observe(card, { subtree: true, childList: true, characterData: true });
      }),
    moment,
  );
}

test('X240–X242: the backup worker killed mid-import leaves the store as before or whole, says so, and a retry imports', async ({
  page,
}, info) => {
  test.setTimeout(120_000 + (IMPORT_KILLS + EXPORT_KILLS) * 60_000);
  await watchBackupWorkers(page);
  // No embedding model: its catch-up would write vectors after each import and blur "as before".
  await page.goto('/#/settings');
  await page.waitForFunction(() => '__loci' in window);
  await page.evaluate(() =>
    (
      window as unknown as {
        __loci: { store: { setSetting(k: string, v: unknown): Promise<void> } };
      }
    ).__loci.store.setSetting('embed.modelId', null),
  );
  const { agentId, template } = await exportSeededBackup(page, info, 'Juniper');
  const backup = page.getByRole('region', { name: 'Backup' });
  const before = await fingerprint(page, agentId);
  // The same agent, renamed, with many messages: importing it replaces the one on the device.
  const big = await page.evaluate(
    ({ template, count }) => {
      const value = JSON.parse(template) as {
        tables: { agents: Record<string, unknown>[]; messages: Record<string, unknown>[] };
      };
      value.tables.agents[0]!.name = 'Juniper restored';
      const seed = value.tables.messages.find((m) => m.id === 'seed-0')!;
      value.tables.messages = Array.from({ length: count }, (_, i) => ({
        ...seed,
        id: `m-${i}`,
        text: `Message ${i}: a line of the imported log.`,
        at: (seed.at as number) + i,
        seq: i + 1,
      }));
      return JSON.stringify(value);
    },
    { template, count: MESSAGES },
  );
  const importButton = backup.getByRole('button', { name: 'Import', exact: true });
  const restored = backup.getByText(/^Restored 1 agent\b/);
  const alert = backup.getByRole('alert');
  // The whole import once, for the fingerprint of "complete".
  await chooseFile(page, big, 'big.json');
  await importButton.click();
  await expect(restored).toBeVisible({ timeout: 120_000 });
  const whole = await fingerprint(page, agentId);
  expect(whole).not.toEqual(before);

  const random = seeded(240);
  const outcomes: Record<string, number> = {};
  const count = (key: string) => (outcomes[key] = (outcomes[key] ?? 0) + 1);
  let failures = 0;
  let lost = 0;
  const problems: string[] = [];
  for (let trial = 0; trial < IMPORT_KILLS; trial += 1) {
    // Back to the one-message agent (the small file, imported whole).
    await chooseFile(page, template, 'template.json');
    await importButton.click();
    await expect(restored).toBeVisible({ timeout: 60_000 });
    expect(await fingerprint(page, agentId)).toEqual(before);

    const r = random();
    const moment: Moment =
      r < 0.15
        ? { phase: 'checking', percent: 0 }
        : r < 0.3
          ? { phase: 'comparing', percent: Math.floor(random() * 100) }
          : { phase: 'writing', percent: Math.floor(random() * 100) };
    await chooseFile(page, big, 'big.json');
    const killed = killAt(page, moment);
    await importButton.click();
    const line = await killed;
    await restored.or(alert).first().waitFor({ timeout: 60_000 });
    const after = await fingerprint(page, agentId);
    const state =
      JSON.stringify(after) === JSON.stringify(before)
        ? 'as before'
        : JSON.stringify(after) === JSON.stringify(whole)
          ? 'whole'
          : 'half-written';
    count(`${moment.phase} ${state}`);
    console.log(
      `[kill] import ${trial + 1}/${IMPORT_KILLS}: ${moment.phase} ${moment.percent}% → ${state}`,
    );
    const said = (await alert.count()) > 0 ? ((await alert.textContent()) ?? '') : '';
    const plain = /nothing was imported/.test(said) && !/undefined|\[object/.test(said);
    if (state === 'half-written') {
      lost += 1;
      problems.push(
        `trial ${trial} (${moment.phase} ${moment.percent}%): ${JSON.stringify(after)}`,
      );
    }
    // Killed before the summary showed: the card must say so; a kill after the commit may not.
    if (line !== null && state === 'as before' && !plain) {
      failures += 1;
      problems.push(`trial ${trial}: the card said “${said}”`);
    }
    if (trial === 0) await backup.screenshot({ path: info.outputPath('backup-worker-killed.png') });
    if (state === 'as before') {
      // The retry: the same file, the same button, a fresh worker.
      await importButton.click();
      await expect(restored).toBeVisible({ timeout: 120_000 });
      if (JSON.stringify(await fingerprint(page, agentId)) !== JSON.stringify(whole)) {
        failures += 1;
        problems.push(`trial ${trial}: the retry did not import the whole file`);
      } else count('retried whole');
    }
  }

  // Export: a kill while the backup is being made saves no file and says so; a retry saves it.
  let exportFailures = 0;
  const exportButton = backup.getByRole('button', { name: 'Export everything' });
  for (let trial = 0; trial < EXPORT_KILLS; trial += 1) {
    const downloads: string[] = [];
    const onDownload = (d: { suggestedFilename(): string }) =>
      downloads.push(d.suggestedFilename());
    page.on('download', onDownload);
    const killed = page.evaluate(
      (delayMs) =>
        new Promise<boolean>((resolve) => {
          const status = () =>
            document.querySelector('section.backup p[role=status]')?.textContent ?? '';
          let started = -1;
          const tick = () => {
            const preparing = status().startsWith('Preparing');
            // Until the click shows "Preparing", the line still holds an earlier export's words.
            if (preparing && started < 0) started = performance.now();
            if (preparing && performance.now() - started >= delayMs) {
              for (const worker of (window as unknown as KillWindow).__backupWorkers)
                worker.terminate();
              resolve(true);
            } else if (started >= 0 && !preparing) resolve(false);
            else requestAnimationFrame(tick);
          };
          tick();
        }),
      Math.floor(random() * 40),
    );
    await exportButton.click();
    const hit = await killed;
    const status = backup
      .getByRole('status')
      .filter({ hasNotText: /^Restored/ })
      .first();
    await expect(status).not.toHaveText(/^Preparing the backup/, { timeout: 60_000 });
    const said = (await status.textContent()) ?? '';
    page.off('download', onDownload);
    if (hit) {
      count(`export killed: ${/^Backup saved/.test(said) ? 'saved' : 'stopped'}`);
      const saved = /^Backup saved/.test(said);
      if ((!saved && !/no file was saved/.test(said)) || (!saved && downloads.length > 0)) {
        exportFailures += 1;
        problems.push(`export ${trial}: the card said “${said}”`);
      }
    }
    const download = page.waitForEvent('download', { timeout: 60_000 });
    await exportButton.click();
    const path = info.outputPath(`export-${trial}.json`);
    await (await download).saveAs(path);
    const file = JSON.parse(await readFile(path, 'utf8')) as {
      tables: { messages: unknown[] };
    };
    if (file.tables.messages.length !== MESSAGES) {
      exportFailures += 1;
      problems.push(`export ${trial}: the retry saved ${file.tables.messages.length} messages`);
    }
  }
  failures += exportFailures;

  reportReliability({
    name: 'backup-worker-kill',
    rule: 'X240–X242',
    trials: IMPORT_KILLS + EXPORT_KILLS,
    failures,
    lost,
    details: {
      'import kills': IMPORT_KILLS,
      'export kills': EXPORT_KILLS,
      messages: MESSAGES,
      ...outcomes,
    },
  });
  expect(problems).toEqual([]);
});
