/**
 * The Settings screen (issue 6, item 4) in the built e2e app: the strategy switch persists,
 * bad thresholds are refused, backups export and import back (plain and encrypted), a hostile
 * file is refused with a clear message and changes nothing, and the storage dashboard.
 */
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import {
  createAgent,
  loadScriptedModel,
  longText,
  reply,
  script,
  seriousViolations,
  setReplyReserve,
  waitForLoci,
} from './helpers/loci';

interface StoreWindow {
  __loci: {
    store: {
      getBlock(
        agentId: string,
        label: string,
      ): Promise<{ value: string; version: number } | undefined>;
      apply(changes: unknown): Promise<unknown>;
      listAgents(): Promise<{ id: string; name: string }[]>;
      stats(): Promise<Record<string, { rows: number }>>;
    };
  };
}

/** Writes the `human` block as a user edit, straight through the store. */
async function setHuman(page: Page, agentId: string, value: string): Promise<void> {
  await page.evaluate(
    async ({ agentId, value }) => {
      const store = (window as unknown as StoreWindow).__loci.store;
      const block = (await store.getBlock(agentId, 'human'))!;
      const version = block.version + 1;
      await store.apply({
        blocks: [
          {
            block: { ...block, value, version, updatedAt: Date.now() },
            history: {
              agentId,
              label: 'human',
              version,
              value,
              source: { type: 'user' },
              at: Date.now(),
            },
          },
        ],
      });
    },
    { agentId, value },
  );
}

/** Closes the "ready to work offline" toast so it does not cover the screenshots. */
async function dismissToast(page: Page): Promise<void> {
  const ok = page.getByRole('button', { name: 'OK', exact: true });
  if (await ok.isVisible()) await ok.click();
}

const human = (page: Page, agentId: string) =>
  page.evaluate(
    async (id) =>
      (await (window as unknown as StoreWindow).__loci.store.getBlock(id, 'human'))?.value,
    agentId,
  );

const rowCounts = (page: Page) =>
  page.evaluate(async () => {
    const stats = await (window as unknown as StoreWindow).__loci.store.stats();
    return Object.fromEntries(Object.entries(stats).map(([k, v]) => [k, v.rows]));
  });

test.describe('settings', () => {
  test('U70/U72: the strategy and automatic recall switch persist after a reload', async ({
    page,
    externalRequests,
  }) => {
    await page.goto('/#/settings');
    await createAgent(page, 'Juniper');
    const form = page.getByRole('form', { name: /Context of “Juniper”/ });
    await expect(form.getByRole('radio', { name: /MemGPT tiers/ })).toBeChecked();
    await form.getByRole('radio', { name: /Forgetting curve/ }).check();
    await expect(form.getByRole('group', { name: 'Forgetting curve' })).toBeVisible();
    await form.getByRole('checkbox', { name: /Automatic recall/ }).uncheck();
    await form.getByRole('button', { name: 'Save settings' }).click();
    await expect(form.getByRole('status')).toHaveText(/Saved/);

    await page.reload();
    const again = page.getByRole('form', { name: /Context of “Juniper”/ });
    await expect(again.getByRole('radio', { name: /Forgetting curve/ })).toBeChecked();
    await expect(again.getByRole('checkbox', { name: /Automatic recall/ })).not.toBeChecked();
    expect(externalRequests).toEqual([]);
  });

  test('U73/U81: choosing an embedding model saves it, downloads nothing, and needs no restart', async ({
    page,
    externalRequests,
  }) => {
    await page.goto('/#/settings');
    await createAgent(page, 'Juniper');
    await page.evaluate(
      () => ((window as unknown as { beforeSwitch?: boolean }).beforeSwitch = true),
    );
    const group = page.getByRole('group', { name: 'Embedding model (search by meaning)' });
    await group.getByRole('radio', { name: /MiniLM L6/ }).check();
    await expect(group.getByRole('status')).toContainText(
      /Saved: MiniLM L6 .* is used for search by meaning now\./,
    );
    const saved = await page.evaluate(() =>
      (
        window as unknown as { __loci: { store: { getSetting(k: string): Promise<unknown> } } }
      ).__loci.store.getSetting('embed.modelId'),
    );
    expect(saved).toBe('Xenova/all-MiniLM-L6-v2');
    // U81 (ADR 0177): the choice is in effect at once; there is nothing to restart.
    await expect(group.getByRole('button', { name: /Restart/ })).toHaveCount(0);
    expect(
      await page.evaluate(() => (window as unknown as { beforeSwitch?: boolean }).beforeSwitch),
    ).toBe(true);
    await page.reload();
    await expect(
      page
        .getByRole('group', { name: 'Embedding model (search by meaning)' })
        .getByRole('radio', { name: /MiniLM L6/ }),
    ).toBeChecked();
    expect(externalRequests).toEqual([]);
  });

  test('U218: with no model, search is by words; choosing one adds search by meaning without a reload, and None takes it away', async ({
    page,
    shoot,
    externalRequests,
  }) => {
    await page.goto('/#/settings');
    await createAgent(page, 'Juniper');
    const group = page.getByRole('group', { name: 'Embedding model (search by meaning)' });
    // The e2e build starts with the fixture model when nothing is saved: choose "None" first.
    await group.getByRole('radio', { name: /Loci fixture/ }).check();
    await expect(group.getByRole('status')).toContainText('Saved: Loci fixture');
    await group.getByRole('radio', { name: /^None/ }).check();
    await expect(group.getByRole('status')).toContainText('Saved: search works by words only now');
    await page.evaluate(
      () => ((window as unknown as { beforeSwitch?: boolean }).beforeSwitch = true),
    );

    // Words only: passages are saved and found by their words; "Meaning" is not offered.
    await page.getByRole('link', { name: 'Memory' }).first().click();
    const archival = page.getByRole('region', { name: 'Archival storage' });
    const list = archival.getByRole('list', { name: 'Archival passages' });
    for (const text of [
      'We ate pizza and noodles at the harbour.',
      'The flight to Tokyo leaves at nine.',
    ]) {
      if (!(await archival.getByRole('textbox', { name: 'Passage text' }).isVisible()))
        await archival.getByText('Add a passage').click();
      await archival.getByRole('textbox', { name: 'Passage text' }).fill(text);
      await archival.getByRole('button', { name: 'Save passage' }).click();
      await expect(list).toContainText(text.slice(0, 20));
    }
    const matchBy = archival.getByRole('combobox', { name: 'Match by' });
    await expect(matchBy.locator('option', { hasText: 'Meaning' })).toBeDisabled();

    // A model is chosen: what is already there is embedded in the background, in this session.
    await page.getByRole('link', { name: 'Settings' }).first().click();
    await group.getByRole('radio', { name: /Loci fixture/ }).check();
    await expect(group.getByRole('status')).toContainText(
      'Saved: Loci fixture (tests only) is used for search by meaning now.',
    );
    const notice = page.getByTestId('background-embedding');
    await expect(notice).toContainText(
      'Search by meaning now covers 2 earlier memories embedded with Loci fixture',
      { timeout: 30_000 },
    );
    await group.scrollIntoViewIfNeeded();
    await shoot(page, 'settings-embed-live-1280x800');
    await page.setViewportSize({ width: 390, height: 844 });
    await group.scrollIntoViewIfNeeded();
    await shoot(page, 'settings-embed-live-390x844');
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });

    // Search by meaning finds the passage that shares no word with the question.
    await page.getByRole('link', { name: 'Memory' }).first().click();
    await expect(matchBy.locator('option', { hasText: 'Meaning' })).toBeEnabled();
    await archival.getByRole('searchbox', { name: 'Search archival memory' }).fill('dinner food');
    await matchBy.selectOption('vector');
    await archival.getByRole('button', { name: 'Search' }).click();
    await expect(list.locator('li').first()).toContainText('pizza and noodles');
    expect(
      await page.evaluate(() => (window as unknown as { beforeSwitch?: boolean }).beforeSwitch),
    ).toBe(true);

    // "None" again: words only, at once, and the passages are still found by their words.
    await page.getByRole('link', { name: 'Settings' }).first().click();
    await group.getByRole('radio', { name: /^None/ }).check();
    await expect(group.getByRole('status')).toContainText('Saved: search works by words only now');
    await page.getByRole('link', { name: 'Memory' }).first().click();
    await expect(matchBy.locator('option', { hasText: 'Meaning' })).toBeDisabled();
    await archival.getByRole('searchbox', { name: 'Search archival memory' }).fill('noodles');
    await matchBy.selectOption('lexical');
    await archival.getByRole('button', { name: 'Search' }).click();
    await expect(archival.getByText(/1–1 of 1 for “noodles”/)).toBeVisible();
    expect(
      await page.evaluate(() => (window as unknown as { beforeSwitch?: boolean }).beforeSwitch),
    ).toBe(true);
    expect(externalRequests).toEqual([]);
  });

  test('U207/U208: a temperature is kept after a reload; one out of range is refused and nothing is saved', async ({
    page,
    externalRequests,
  }) => {
    await page.goto('/#/settings');
    await createAgent(page, 'Juniper');
    const form = page.getByRole('form', { name: /Context of “Juniper”/ });
    const temperature = form.getByRole('spinbutton', { name: 'Temperature' });
    const topP = form.getByRole('spinbutton', { name: 'Top-p' });
    await expect(form.getByText('Lower is steadier, higher is more varied.')).toBeVisible();
    await expect(temperature).toHaveValue('0.7');
    await expect(topP).toHaveValue('0.9');
    await temperature.fill('1.2');
    await form.getByRole('button', { name: 'Save settings' }).click();
    await expect(form.getByRole('status')).toHaveText(/Saved/);

    await page.reload();
    const again = page.getByRole('form', { name: /Context of “Juniper”/ });
    await expect(again.getByRole('spinbutton', { name: 'Temperature' })).toHaveValue('1.2');
    await again.getByRole('spinbutton', { name: 'Temperature' }).fill('5');
    await again.getByRole('button', { name: 'Save settings' }).click();
    await expect(again.getByRole('status')).toHaveText(/need fixing/);
    await expect(again.getByText('Temperature must be a number from 0 to 2.')).toBeVisible();
    await expect(again.getByRole('spinbutton', { name: 'Temperature' })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    await page.reload();
    const kept = page.getByRole('form', { name: /Context of “Juniper”/ });
    await expect(kept.getByRole('spinbutton', { name: 'Temperature' })).toHaveValue('1.2');
    await kept.getByRole('button', { name: 'Reset to defaults' }).click();
    await expect(kept.getByRole('spinbutton', { name: 'Temperature' })).toHaveValue('0.7');
    await expect(kept.getByRole('spinbutton', { name: 'Top-p' })).toHaveValue('0.9');
    expect(externalRequests).toEqual([]);
  });

  test('U71 U323: thresholds out of order are refused on the field and nothing is saved; they read in percent and tokens', async ({
    page,
    shoot,
  }) => {
    await page.goto('/#/settings');
    await createAgent(page, 'Juniper');
    const form = page.getByRole('form', { name: /Context of “Juniper”/ });
    const remind = form.getByRole('spinbutton', { name: 'Remind the model to save at' });
    const summarize = form.getByRole('spinbutton', { name: 'Summarize older messages at' });
    // U323: percent of the window, not fractions (the default 0.84 of a 4k window reads 84 %).
    await expect(remind).toHaveValue('84');
    await expect(form.getByText(/^% of the window.*the model is asked to save/)).toBeVisible();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [w, h] of [
        [1280, 800],
        [390, 844],
      ] as const) {
        await page.setViewportSize({ width: w, height: h });
        await remind.scrollIntoViewIfNeeded();
        await shoot(page, `settings-budgets-${w}x${h}-${scheme}`);
        expect(await seriousViolations(page), `settings at ${w}x${h} ${scheme}`).toEqual([]);
      }
    }
    await remind.fill('40');
    await summarize.fill('30');
    await form.getByRole('button', { name: 'Save settings' }).click();
    await expect(form.getByRole('status')).toHaveText(/need fixing/);
    await expect(form.getByText(/must not be above the summary point/)).toBeVisible();
    await expect(remind).toHaveAttribute('aria-invalid', 'true');
    await page.reload();
    // Still the default: 3 % of a 4,096 window below the summary point (C13, ADR 0203).
    await expect(page.getByRole('spinbutton', { name: 'Remind the model to save at' })).toHaveValue(
      '84',
    );
    // A valid change is stored as the fraction the planner reads.
    const again = page.getByRole('form', { name: /Context of “Juniper”/ });
    await again.getByRole('spinbutton', { name: 'Remind the model to save at' }).fill('80');
    await again.getByRole('button', { name: 'Save settings' }).click();
    await expect(again.getByRole('status')).toHaveText(/Saved/);
    const agents = await page.evaluate(() =>
      (
        window as unknown as {
          __loci: { store: { listAgents(): Promise<{ budgets: { warningFraction: number } }[]> } };
        }
      ).__loci.store.listAgents(),
    );
    expect(agents[0]?.budgets.warningFraction).toBe(0.8);
  });

  test('U74/U76: a backup exports and imports back, plain and encrypted', async ({
    page,
  }, info) => {
    await page.goto('/#/settings');
    const agentId = await createAgent(page, 'Juniper');
    await setHuman(page, agentId, 'Name: Ada. Likes green tea.');
    const backup = page.getByRole('region', { name: 'Backup' });

    const plainDownload = page.waitForEvent('download');
    await backup.getByRole('button', { name: 'Export everything' }).click();
    const plain = await plainDownload;
    expect(plain.suggestedFilename()).toMatch(/^loci-backup-\d{4}-\d{2}-\d{2}\.json$/);
    const plainPath = info.outputPath('plain.json');
    await plain.saveAs(plainPath);
    await expect(backup.getByRole('status').first()).toHaveText(/Backup saved/);

    await setHuman(page, agentId, 'Overwritten after the backup.');
    await backup.getByLabel('Backup file to import').setInputFiles(plainPath);
    await backup.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(backup.getByText(/^Restored 1 agent\b/)).toBeVisible();
    expect(await human(page, agentId)).toBe('Name: Ada. Likes green tea.');

    // Encrypted: the wrong passphrase changes nothing; the right one restores.
    await backup.getByLabel(/Passphrase \(optional/).fill('correct horse');
    const secretDownload = page.waitForEvent('download');
    await backup.getByRole('button', { name: 'Export “Juniper” only' }).click();
    const secret = await secretDownload;
    expect(secret.suggestedFilename()).toMatch(/Juniper\.encrypted\.json$/);
    const secretPath = info.outputPath('secret.json');
    await secret.saveAs(secretPath);

    await setHuman(page, agentId, 'Changed again.');
    await backup.getByLabel('Backup file to import').setInputFiles(secretPath);
    // No passphrase typed: it says the file is encrypted, not that a passphrase was wrong (U156).
    await backup.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(backup.getByRole('alert')).toContainText('This backup is encrypted: type the');
    await backup.getByLabel('Backup file to import').setInputFiles(secretPath);
    await backup.getByLabel(/Passphrase of the file/).fill('wrong');
    await backup.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(backup.getByRole('alert')).toContainText('passphrase does not open this backup');
    expect(await human(page, agentId)).toBe('Changed again.');

    await backup.getByLabel(/Passphrase of the file/).fill('correct horse');
    await backup.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(backup.getByText(/^Restored /)).toBeVisible({ timeout: 30_000 });
    expect(await human(page, agentId)).toBe('Name: Ada. Likes green tea.');
  });

  test('U75: a hostile file is refused with a clear message and changes nothing', async ({
    page,
  }, info) => {
    await page.goto('/#/settings');
    await createAgent(page, 'Juniper');
    const before = await rowCounts(page);
    const backup = page.getByRole('region', { name: 'Backup' });
    const hostile = {
      format: 'loci-backup',
      version: 1,
      exportedAt: 0,
      scope: { type: 'all' },
      tables: {
        agents: [
          { id: '<img src=x onerror=alert(1)>', name: { $gt: '' }, __proto__: { admin: true } },
        ],
        blocks: 'not a list',
      },
    };
    const cases: [string, string][] = [
      ['hostile.json', JSON.stringify(hostile)],
      ['garbage.json', '\u0000\u0001 not json at all {'],
      ['future.json', JSON.stringify({ ...hostile, version: 999 })],
    ];
    for (const [name, text] of cases) {
      const path = info.outputPath(name);
      const { writeFile } = await import('node:fs/promises');
      await writeFile(path, text);
      await backup.getByLabel('Backup file to import').setInputFiles(path);
      await backup.getByRole('button', { name: 'Import', exact: true }).click();
      await expect(backup.getByRole('alert')).toContainText('nothing was imported');
    }
    expect(await rowCounts(page)).toEqual(before);
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
  });

  test('U77/U78: persistence can be requested and the dashboard shows usage and rows per tier', async ({
    page,
    shoot,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/#/settings');
    await createAgent(page, 'Juniper');
    const storage = page.getByRole('region', { name: 'Storage', exact: true });
    await expect(storage.getByTestId('usage')).toHaveText(
      /^Used: [\d.]+ [KMGT]?B of [\d.]+ [KMGT]?B available to this site/,
    );
    await storage.getByRole('button', { name: 'Ask for persistent storage' }).click();
    await expect(storage.getByRole('status')).toHaveText(/^(Granted|Not granted)/);
    const tiers = storage.getByRole('region', { name: /All agents/ });
    await expect(tiers.locator('tr[data-tier="agents"] td').first()).toHaveText('1');
    await expect(tiers.locator('tr[data-tier="blocks"] td').first()).toHaveText('2');

    await dismissToast(page);
    await shoot(page, 'settings-storage-1280x800');
    const top = () => page.locator('main').evaluate((el) => el.scrollTo(0, 0));
    await top();
    await shoot(page, 'settings-1280x800');
    await page.setViewportSize({ width: 390, height: 844 });
    await dismissToast(page);
    await top();
    await shoot(page, 'settings-390x844');
    // Nothing sticks out sideways on a phone.
    expect(
      await page.locator('main').evaluate((el) => el.scrollWidth - el.clientWidth),
    ).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);
  });
});

test('P20 P22 P23: the first saved memory asks for persistent storage; refused, the dashboard says what it means and a backup reminder can be set', async ({
  page,
  shoot,
}) => {
  // Counts the real calls (headless Chromium answers false, as a browser without engagement does).
  await page.addInitScript(() => {
    const persist = StorageManager.prototype.persist;
    StorageManager.prototype.persist = function () {
      const w = window as unknown as { __persistCalls?: number };
      w.__persistCalls = (w.__persistCalls ?? 0) + 1;
      return persist.call(this);
    };
  });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/#/chat');
  await waitForLoci(page);
  const calls = () =>
    page.evaluate(() => (window as { __persistCalls?: number }).__persistCalls ?? 0);
  expect(await calls()).toBe(0);
  await createAgent(page, 'Juniper');
  await expect.poll(calls).toBe(1);
  // A second agent is not a first memory: no second request.
  await createAgent(page, 'Maple');
  await page.waitForTimeout(300);
  expect(await calls()).toBe(1);

  await page.goto('/#/settings');
  const storage = page.getByRole('region', { name: 'Storage', exact: true });
  await expect(storage.getByTestId('persisted')).toContainText('best effort');
  await expect(storage.getByTestId('persist-asked')).toHaveText(
    /Loci asked the browser after your first saved memory \(.+\): not granted\./,
  );
  await expect(storage.getByTestId('persist-risk')).toContainText(
    'the browser may delete all of Loci’s data',
  );
  await storage.getByRole('combobox', { name: 'Remind me to back up' }).selectOption('7');
  await expect(storage.getByTestId('last-backup')).toHaveText(
    'Last full backup on this device: none yet.',
  );
  await dismissToast(page);
  await storage.scrollIntoViewIfNeeded();
  await shoot(page, 'settings-storage-best-effort-1280x800');
  await page.setViewportSize({ width: 390, height: 844 });
  await storage.getByTestId('persist-risk').scrollIntoViewIfNeeded();
  await shoot(page, 'settings-storage-best-effort-390x844');
  expect(await seriousViolations(page)).toEqual([]);

  // The reminder shows on the other screens until "Later"; a full backup resets it.
  await page.goto('/#/documents');
  const reminder = page.getByTestId('backup-reminder');
  await expect(reminder).toContainText('This device has no backup of Loci yet');
  await expect(page.getByRole('heading', { name: 'Documents', level: 1 })).toBeVisible();
  await dismissToast(page);
  await shoot(page, 'backup-reminder-390x844');
  await reminder.getByRole('button', { name: 'Later' }).click();
  await expect(reminder).toHaveCount(0);
  await page.reload();
  await waitForLoci(page);
  await expect(page.getByRole('heading', { name: 'Documents', level: 1 })).toBeVisible();
  await expect(reminder).toHaveCount(0);
  await page.goto('/#/settings');
  const download = page.waitForEvent('download');
  await page
    .getByRole('region', { name: 'Backup' })
    .getByRole('button', { name: 'Export everything' })
    .click();
  await download;
  await expect(storage.getByTestId('last-backup')).not.toContainText('none yet');
  // The page loads since asked nothing again: the moment had asked on this device already.
  expect(await calls()).toBe(0);
});

test('U220: a choice made in another tab takes effect in this one too, without a reload', async ({
  page,
  context,
  externalRequests,
}) => {
  await page.goto('/#/settings');
  await createAgent(page, 'Juniper');
  const other = await context.newPage();
  await other.goto('/#/settings');
  await waitForLoci(other);
  const semantic = (tab: Page) =>
    tab.evaluate(
      () =>
        (window as unknown as { __loci: { search: { semantic: boolean } } }).__loci.search.semantic,
    );
  expect(await semantic(other)).toBe(true);
  const group = page.getByRole('group', { name: 'Embedding model (search by meaning)' });
  await group.getByRole('radio', { name: /Loci fixture/ }).check();
  await expect(group.getByRole('status')).toContainText('Saved: Loci fixture');
  await group.getByRole('radio', { name: /^None/ }).check();
  await expect(group.getByRole('status')).toContainText('Saved: search works by words only now');
  await expect.poll(() => semantic(other), { timeout: 15_000 }).toBe(false);
  await expect(
    other
      .getByRole('group', { name: 'Embedding model (search by meaning)' })
      .getByRole('radio', { name: /^None/ }),
  ).toBeChecked();
  // And back: meaning search joins in there as well.
  await group.getByRole('radio', { name: /Loci fixture/ }).check();
  await expect.poll(() => semantic(other), { timeout: 15_000 }).toBe(true);
  expect(externalRequests).toEqual([]);
});

test('U219: choosing an embedding model while a reply is being written lets the reply finish, once', async ({
  page,
  externalRequests,
}) => {
  await page.goto('/#/settings');
  const agentId = await createAgent(page, 'Juniper');
  await setReplyReserve(page, agentId, 1500);
  await loadScriptedModel(page);
  const group = page.getByRole('group', { name: 'Embedding model (search by meaning)' });
  // The e2e build starts with the fixture model when nothing is saved: saved, it shows as chosen.
  await group.getByRole('radio', { name: /Loci fixture/ }).check();
  await expect(group.getByRole('status')).toContainText('Saved: Loci fixture');
  // A reply starts (as from the chat, which keeps running behind this screen).
  await script(page, reply(longText('Line', 120)));
  await page.evaluate(() => {
    void (
      window as unknown as { __loci: { session: { send(text: string): Promise<unknown> } } }
    ).__loci.session.send('Write me something long.');
  });
  await group.getByRole('radio', { name: /^None/ }).check();
  await expect(group.getByRole('status')).toContainText('Saved: search works by words only now', {
    timeout: 60_000,
  });
  expect(
    await page.evaluate(
      () =>
        (window as unknown as { __loci: { search: { semantic: boolean } } }).__loci.search.semantic,
    ),
  ).toBe(false);
  await page.waitForFunction(
    () =>
      !(window as unknown as { __loci: { session: { running: boolean } } }).__loci.session.running,
    undefined,
    { timeout: 60_000 },
  );
  const replies = await page.evaluate(
    () =>
      (
        window as unknown as { __loci: { session: { messages: { text: string }[] } } }
      ).__loci.session.messages.filter((m) => m.text.includes('Line 120')).length,
  );
  expect(replies).toBe(1);
  expect(externalRequests).toEqual([]);
});

/**
 * Stores what a user had before switching embedding models: `texts` as old conversation messages
 * (user and assistant in turn, out of the context window, with no vector from the current model)
 * and `passages` carrying an 8-d vector of another model.
 */
async function seedOldMemories(
  page: Page,
  agentId: string,
  texts: string[],
  passages: Record<string, unknown>[] = [],
): Promise<void> {
  await page.evaluate(
    async ({ agentId, texts, passages }) => {
      const store = (window as unknown as StoreWindow).__loci.store;
      const day = 86_400_000;
      await store.apply({
        passages: passages.map((p) => ({
          ...p,
          agentId,
          embedding: new Float32Array(8).fill(0.5),
        })),
        messages: texts.map((text, i) => ({
          id: `m-old-${i}`,
          agentId,
          role: i % 2 ? 'assistant' : 'user',
          text,
          // A reply as the live loop stores it: the text of its send_message step (R19).
          ...(i % 2 ? { toolCall: { name: 'send_message', arguments: { message: text } } } : {}),
          at: Date.now() - day + i,
          inContext: false,
          tokens: 10,
        })),
      });
    },
    { agentId, texts, passages },
  );
}

test('U80: after an embedding-model switch, earlier memories are embedded again in the background', async ({
  page,
  externalRequests,
}) => {
  await page.goto('/#/settings');
  const agentId = await createAgent(page, 'Juniper');
  // Memories from before the switch: a passage embedded by the old model, and messages that
  // have no vector from the current one.
  await seedOldMemories(
    page,
    agentId,
    ['My sister Maya loves green tea.', 'Noted: Maya and green tea.'],
    [
      {
        id: 'p-old',
        text: 'The lighthouse keeper logs the weather every night.',
        source: { type: 'memory' },
        tags: [],
        at: Date.now() - 86_400_000,
        embeddingModel: 'an-older-model',
        dimension: 8,
      },
    ],
  );
  // The next start (the model switch takes effect then) catches them up.
  await page.reload();
  const notice = page.getByTestId('background-embedding');
  await expect(notice).toContainText(
    'Search by meaning now covers 3 earlier memories embedded with Loci fixture',
    { timeout: 30_000 },
  );
  const stored = await page.evaluate(async () => {
    const store = (
      window as unknown as {
        __loci: { store: { getPassages(ids: string[]): Promise<{ embeddingModel: string }[]> } };
      }
    ).__loci.store;
    return (await store.getPassages(['p-old']))[0]?.embeddingModel;
  });
  expect(stored).toBe('loci-fixture-embed');
  await notice.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-artifacts/screenshots/settings-reembedded-1280x720.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await notice.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-artifacts/screenshots/settings-reembedded-390x844.png' });
  // Nothing is left to do: the next start does not run again.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await page.waitForFunction(
    () =>
      (window as unknown as { __loci?: { embedding?: { running: boolean } } }).__loci?.embedding
        ?.running === false,
  );
  await expect(notice).not.toContainText('earlier memories');
  expect(externalRequests).toEqual([]);
});

test.describe('a failed embedding-model download', () => {
  // The service worker would serve the model from its cache; blocked, the route below sees
  // every request the embed worker makes.
  test.use({ serviceWorkers: 'block' });

  test('U217: a failed embedding-model download says so, and Try again catches up without a restart', async ({
    page,
    shoot,
  }) => {
    await page.goto('/#/settings');
    const agentId = await createAgent(page, 'Juniper');
    await seedOldMemories(page, agentId, ['My sister Maya loves green tea.', 'Noted: Maya.']);
    // Offline for the model's files: the catch-up at the next start cannot load it.
    await page.route('**/models/**', (route) => route.abort('internetdisconnected'));
    await page.reload();
    const notice = page.getByTestId('background-embedding');
    await expect(notice).toContainText('Embedding earlier memories stopped:', { timeout: 30_000 });
    await expect(notice).toContainText(
      'The embedding model failed, so search by meaning is off for now. Search by words still finds them',
    );
    // In plain words: the library's own message stays in the console.
    await expect(notice).not.toContainText('local_files_only');
    const tryAgain = notice.getByRole('button', { name: 'Try again' });
    await tryAgain.scrollIntoViewIfNeeded();
    await shoot(page, 'settings-embed-failed-1280x800');
    await page.setViewportSize({ width: 390, height: 844 });
    await tryAgain.scrollIntoViewIfNeeded();
    await shoot(page, 'settings-embed-failed-390x844');
    expect(await seriousViolations(page)).toEqual([]);

    // Back online: Try again loads the model in this session and embeds what was missing.
    await page.unroute('**/models/**');
    await tryAgain.click();
    await expect(notice).toContainText(
      'Search by meaning now covers 2 earlier memories embedded with Loci fixture',
      { timeout: 30_000 },
    );
  });
});

test('U80: catching up can be paused and resumed; what was embedded stays embedded', async ({
  page,
  externalRequests,
}) => {
  await page.goto('/#/settings');
  const agentId = await createAgent(page, 'Juniper');
  // Enough that the catch-up still runs when the pause is clicked, on a slow machine too.
  await seedOldMemories(
    page,
    agentId,
    Array.from({ length: 6000 }, (_, i) => `Message ${i} about tea, cats and the sea.`),
  );
  await page.reload();
  const notice = page.getByTestId('background-embedding');
  await expect(notice).toContainText('Embedding earlier memories', { timeout: 30_000 });
  await expect(
    notice.getByRole('progressbar', { name: 'Embedding earlier memories' }),
  ).toBeVisible();
  await notice.getByRole('button', { name: 'Pause until next start' }).click();
  await expect(notice).toContainText(/Paused with [\d,]+ earlier\s+memories still to embed/);
  const left = Number(
    (await notice.textContent())!.match(/Paused with ([\d,]+)/)![1]!.replace(/,/g, ''),
  );
  expect(left).toBeGreaterThan(0);
  expect(left).toBeLessThan(6000);
  await notice.getByRole('button', { name: 'Resume now' }).click();
  // Only what was left is embedded: the batches done before the pause were kept.
  await expect(notice).toContainText(
    `Search by meaning now covers ${left.toLocaleString('en-US')} earlier memories`,
    { timeout: 120_000 },
  );
  expect(externalRequests).toEqual([]);
});

test('U162: the appearance follows the device, or a choice that stays after a reload', async ({
  page,
  shoot,
  externalRequests,
}) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/#/settings');
  const root = page.locator('html');
  await expect(root).toHaveAttribute('data-theme', 'dark');
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const darkBackground = await background();
  const appearance = page.getByRole('group', { name: 'Appearance' });
  await expect(appearance.getByRole('radio', { name: 'Same as this device' })).toBeChecked();

  await appearance.getByRole('radio', { name: 'Light' }).check();
  await expect(root).toHaveAttribute('data-theme', 'light');
  expect(await background()).not.toBe(darkBackground);
  await page.reload();
  await expect(root).toHaveAttribute('data-theme', 'light');
  await expect(
    page.getByRole('group', { name: 'Appearance' }).getByRole('radio', { name: 'Light' }),
  ).toBeChecked();

  // Back to the device's choice: it follows the system live.
  await page
    .getByRole('group', { name: 'Appearance' })
    .getByRole('radio', { name: 'Same as this device' })
    .check();
  await expect(root).toHaveAttribute('data-theme', 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(root).toHaveAttribute('data-theme', 'light');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('group', { name: 'Appearance' }).scrollIntoViewIfNeeded();
  await shoot(page, 'settings-appearance-390x844');
  expect(externalRequests).toEqual([]);
});
