/**
 * The Documents screens end to end (U130–U141): import by file picker, drag-and-drop and paste,
 * progress and cancel, duplicates, live delete, asking the scripted agent and following its
 * citation into the viewer, a hostile HTML file, the share target, axe and screenshots.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { test, expect, waitForServiceWorker } from './fixtures';
import {
  createAgent,
  dismissToast,
  loadScriptedModelWith,
  reply,
  seriousViolations,
  step,
  waitForLoci,
} from './helpers/loci';

const FIXTURES = 'tests/fixtures/documents';
const ALL = ['notes.txt', 'handbook.md', 'sample.pdf', 'chinese.txt', 'hostile.html'];

interface StoreWindow {
  __loci: {
    store: {
      listDocuments(agentId: string): Promise<{ id: string; title: string }[]>;
      queryPassages(
        agentId: string,
        query?: { documentId?: string },
      ): Promise<{ id: string; text: string }[]>;
      countPassages(agentId: string, query?: { documentId?: string }): Promise<number>;
    };
  };
}

async function openDocuments(page: Page): Promise<string> {
  await page.goto('/#/chat');
  const agentId = await createAgent(page, 'Juniper');
  await page.evaluate(() => (window.location.hash = '#/documents'));
  await expect(page.getByRole('heading', { name: 'Documents', level: 1 })).toBeVisible();
  await dismissToast(page);
  return agentId;
}

function fixture(name: string) {
  return `${FIXTURES}/${name}`;
}

async function pick(page: Page, files: string[]): Promise<void> {
  await page.getByTestId('file-input').setInputFiles(files.map(fixture));
}

/** Waits until `count` imports have ended with the stage `stage`. */
async function expectJobs(page: Page, stage: string, count: number, timeout = 60_000) {
  await expect(page.locator(`[data-testid="import-job"][data-stage="${stage}"]`)).toHaveCount(
    count,
    { timeout },
  );
}

function libraryItem(page: Page, title: string) {
  return page.getByTestId('library-item').filter({ has: page.getByRole('link', { name: title }) });
}

async function documentsOf(page: Page, agentId: string) {
  return page.evaluate(
    (id) => (window as unknown as StoreWindow).__loci.store.listDocuments(id),
    agentId,
  );
}

test.describe('documents', () => {
  test('U130/U131/U133: file picker imports every format with progress; a re-import is recognised; unsupported files are named', async ({
    page,
    shoot,
    externalRequests,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    const agentId = await openDocuments(page);
    await expect(page.getByTestId('library-empty')).toBeVisible();
    await pick(page, ALL);
    await expectJobs(page, 'indexed', ALL.length);
    for (const title of ['notes', 'Lighthouse Handbook', 'chinese', 'Recipe: Lemon & Thyme Cake']) {
      await expect(libraryItem(page, title)).toBeVisible();
    }
    await expect(page.getByTestId('library-item')).toHaveCount(ALL.length);
    const pdf = page.getByTestId('library-item').filter({ hasText: 'PDF' });
    await expect(pdf).toContainText(/\d+ passages?/);
    await expect(pdf).toContainText('Indexed');
    const chinese = libraryItem(page, 'chinese');
    await expect(chinese).toContainText('Text');
    await dismissToast(page);
    await shoot(page, 'documents-library-1280x800');

    // The same bytes again: nothing is added.
    await page.getByRole('button', { name: 'Clear finished' }).click();
    await pick(page, ['notes.txt']);
    await expectJobs(page, 'duplicate', 1);
    await expect(page.getByTestId('import-job')).toContainText('Already in your library');
    expect(await documentsOf(page, agentId)).toHaveLength(ALL.length);

    // An unsupported file fails at once, with its name.
    await page.getByTestId('file-input').setInputFiles({
      name: 'photo.png',
      mimeType: 'image/png',
      buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47]),
    });
    await expectJobs(page, 'failed', 1);
    await expect(page.locator('[data-stage="failed"]')).toContainText('photo.png');
    await expect(page.locator('[data-stage="failed"]')).toContainText('not a text, Markdown');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('heading', { name: 'Library' }).scrollIntoViewIfNeeded();
    await dismissToast(page);
    await shoot(page, 'documents-library-390x844');
    expect(externalRequests).toEqual([]);
  });

  test('U130/U132: drag-and-drop of several files, and pasted text (form or Ctrl+V), become documents', async ({
    page,
    externalRequests,
  }) => {
    const agentId = await openDocuments(page);
    const files = ['notes.txt', 'handbook.md'].map((name) => ({
      name,
      text: readFileSync(fixture(name), 'utf8'),
    }));
    await page.getByTestId('drop-zone').evaluate((zone, list) => {
      const transfer = new DataTransfer();
      for (const f of list) transfer.items.add(new File([f.text], f.name, { type: '' }));
      zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: transfer, bubbles: true }));
      zone.dispatchEvent(
        new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }),
      );
    }, files);
    await expectJobs(page, 'indexed', 2);
    await expect(libraryItem(page, 'Lighthouse Handbook')).toBeVisible();

    await page.getByText('Paste text as a note').click();
    await page.getByLabel('Title (optional)').fill('Packing list');
    await page
      .getByLabel('Text', { exact: true })
      .fill('Tent, stove, two maps and the red kettle.');
    await page.getByRole('button', { name: 'Save as note' }).click();
    await expectJobs(page, 'indexed', 3);
    await expect(libraryItem(page, 'Packing list')).toContainText('Text');

    // A paste outside the form (Ctrl+V on the screen) imports the text too.
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.setData('text/plain', 'Ferry times\nThe last ferry leaves at 22:10.');
      document.body.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
      );
    });
    await expectJobs(page, 'indexed', 4);
    await expect(libraryItem(page, 'Ferry times')).toBeVisible();
    expect(await documentsOf(page, agentId)).toHaveLength(4);
    expect(externalRequests).toEqual([]);
  });

  test('U133/U134: a large import shows embedding progress and Cancel leaves nothing behind', async ({
    page,
    shoot,
    externalRequests,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    const agentId = await openDocuments(page);
    const paragraph =
      'The keeper wrote the weather, the visibility and every passing ship in the logbook. ';
    const big = Array.from({ length: 4000 }, (_, i) => `${i}. ${paragraph.repeat(3)}`).join('\n\n');
    await page.getByTestId('file-input').setInputFiles({
      name: 'big-log.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from(big),
    });
    const job = page.getByTestId('import-job');
    await expect(job).toHaveAttribute('data-stage', 'embedding', { timeout: 30_000 });
    await expect(job).toContainText(/Embedding \d+\/\d+/);
    await expect(job.getByRole('progressbar')).toBeVisible();
    await shoot(page, 'documents-import-progress-1280x800');
    await job.getByRole('button', { name: 'Cancel import of big-log.txt' }).click();
    await expectJobs(page, 'cancelled', 1);
    await expect(job).toContainText('nothing was kept');
    expect(await documentsOf(page, agentId)).toHaveLength(0);
    const passages = await page.evaluate(
      (id) => (window as unknown as StoreWindow).__loci.store.countPassages(id),
      agentId,
    );
    expect(passages).toBe(0);
    await expect(page.getByTestId('library-empty')).toBeVisible();
    expect(externalRequests).toEqual([]);
  });

  test('U134: delete asks first, cascades, and updates another open view live', async ({
    page,
    context,
    externalRequests,
  }) => {
    const agentId = await openDocuments(page);
    await pick(page, ['notes.txt', 'handbook.md']);
    await expectJobs(page, 'indexed', 2);
    const other = await context.newPage();
    await other.goto('/#/documents');
    await expect(libraryItem(other, 'notes')).toBeVisible();
    const docs = await documentsOf(page, agentId);
    const notesId = docs.find((d) => d.title === 'notes')!.id;

    await page.getByRole('button', { name: 'Delete notes' }).click();
    await expect(page.getByText('Delete “notes” and its')).toBeVisible();
    await page.getByRole('button', { name: 'Keep' }).click();
    await expect(libraryItem(page, 'notes')).toBeVisible();
    await page.getByRole('button', { name: 'Delete notes' }).click();
    await libraryItem(page, 'notes').getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(libraryItem(page, 'notes')).toHaveCount(0);
    await expect(libraryItem(other, 'notes')).toHaveCount(0);
    await expect(libraryItem(other, 'Lighthouse Handbook')).toBeVisible();
    const left = await page.evaluate(
      ({ agentId, notesId }) =>
        (window as unknown as StoreWindow).__loci.store.countPassages(agentId, {
          documentId: notesId,
        }),
      { agentId, notesId },
    );
    expect(left).toBe(0);
    await other.close();
    expect(externalRequests).toEqual([]);
  });

  test('U135: a document embedded by another model says so and Re-embed brings it up to date', async ({
    page,
    externalRequests,
  }) => {
    const agentId = await openDocuments(page);
    await pick(page, ['handbook.md']);
    await expectJobs(page, 'indexed', 1);
    // As if the passages had been embedded by the previously chosen embedding model.
    await page.evaluate(async (id) => {
      const store = (
        window as unknown as {
          __loci: {
            store: {
              queryPassages(a: string): Promise<{ embeddingModel: string }[]>;
              apply(c: object): Promise<unknown>;
            };
          };
        }
      ).__loci.store;
      const passages = await store.queryPassages(id);
      await store.apply({
        passages: passages.map((p) => ({ ...p, embeddingModel: 'an-older-model' })),
      });
    }, agentId);
    await page.reload();
    const item = libraryItem(page, 'Lighthouse Handbook');
    await expect(item).toContainText('Needs re-embedding');
    await item.getByRole('button', { name: 'Re-embed Lighthouse Handbook' }).click();
    await expect(item).toContainText('Indexed');
    await expect(item.getByRole('button', { name: /Re-embed/ })).toHaveCount(0);
    const models = await page.evaluate(
      async (id) =>
        (
          (await (
            window as unknown as {
              __loci: {
                store: { queryPassages(a: string): Promise<{ embeddingModel: string }[]> };
              };
            }
          ).__loci.store.queryPassages(id)) as { embeddingModel: string }[]
        ).map((p) => p.embeddingModel),
      agentId,
    );
    expect(new Set(models).has('an-older-model')).toBe(false);
    expect(externalRequests).toEqual([]);
  });

  test('U136/U137/U138: ask a question, the reply cites a passage, the citation opens it highlighted', async ({
    page,
    shoot,
    externalRequests,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    const agentId = await openDocuments(page);
    await pick(page, ['handbook.md', 'notes.txt']);
    await expectJobs(page, 'indexed', 2);
    const docs = await documentsOf(page, agentId);
    const handbook = docs.find((d) => d.title === 'Lighthouse Handbook')!;
    const passages = await page.evaluate(
      ({ agentId, documentId }) =>
        (window as unknown as StoreWindow).__loci.store.queryPassages(agentId, { documentId }),
      { agentId, documentId: handbook.id },
    );
    const paraffin = passages.find((p) => p.text.includes('Paraffin'))!;
    expect(paraffin).toBeDefined();
    // The model searches, then answers only once the tool result shows it that passage's id.
    const escaped = paraffin.id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    await loadScriptedModelWith(page, {
      outputs: [step('archival_memory_search', { query: 'paraffin fuel cans' }, true)],
      rules: [
        {
          pattern: `\\[p:${escaped}\\]`,
          reply: reply(
            `Paraffin is kept in the red cans in the cellar [^${paraffin.id}]. Carry at most two [^psg_made_up].`,
          ),
        },
      ],
    });
    await page.getByLabel('Question about your documents').fill('Where is the fuel kept?');
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await expect(page).toHaveURL(/#\/chat$/);
    const answer = page.getByTestId('assistant-message').last();
    await expect(answer).toContainText('red cans in the cellar', { timeout: 30_000 });
    const citation = answer.getByRole('link', { name: '[1]' });
    await expect(citation).toBeVisible();
    // The made-up id is dropped, never shown raw.
    await expect(answer).not.toContainText('psg_made_up');
    await expect(answer).not.toContainText('[^');
    await dismissToast(page);
    await shoot(page, 'documents-cited-reply-1280x800');
    await citation.click();
    await expect(page).toHaveURL(/#\/documents\?doc=.*&passage=/);
    const viewer = page.getByTestId('document-viewer');
    await expect(
      viewer.getByRole('heading', { name: 'Lighthouse Handbook', level: 2 }),
    ).toBeVisible();
    // The Markdown is formatted (U197): the cited passage's blocks are marked, the first focused.
    const mark = viewer.getByTestId('cited-passage');
    await expect(
      viewer.locator('.block.cited', { hasText: 'Paraffin is stored in the red cans' }),
    ).toHaveCount(1);
    await expect(mark).toBeInViewport();
    await expect(viewer.getByTestId('document-text')).toContainText('The lamp must be lit');
    await dismissToast(page);
    await shoot(page, 'documents-viewer-1280x800');
    await page.setViewportSize({ width: 390, height: 844 });
    await mark.scrollIntoViewIfNeeded();
    await expect(mark).toBeInViewport();
    await shoot(page, 'documents-viewer-390x844');
    // Opened from the chat's citation, the viewer leads back to that chat (issue 37 item 6).
    await viewer.getByRole('link', { name: '← Chat' }).click();
    await expect(page).toHaveURL(/#\/chat$/);
    await expect(page.getByTestId('assistant-message').last()).toContainText(
      'red cans in the cellar',
    );
    expect(externalRequests).toEqual([]);
  });

  test('U139: the hostile HTML file shows its text and runs nothing', async ({
    page,
    externalRequests,
  }) => {
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    const agentId = await openDocuments(page);
    await pick(page, ['hostile.html']);
    await expectJobs(page, 'indexed', 1);
    const [doc] = await documentsOf(page, agentId);
    await page.getByRole('link', { name: doc!.title }).click();
    const text = page.getByTestId('document-text');
    await expect(text).toContainText('Lemon & Thyme Cake');
    await expect(text).toContainText('Beat the eggs with the sugar');
    await expect(text).toContainText('5 < 6 and 7 > 3 stays.');
    for (const leak of ['SCRIPT-LEAK', 'STYLE-LEAK', 'COMMENT-LEAK', 'TEMPLATE-LEAK']) {
      await expect(text).not.toContainText(leak);
    }
    await expect(text.locator('script, img, svg, iframe, a, style')).toHaveCount(0);
    expect(dialogs).toEqual([]);
    expect(externalRequests).toEqual([]);
  });

  test('U140 U200 U201: text shared by a link waits in the inbox, and becomes a note once added', async ({
    page,
    externalRequests,
  }) => {
    await page.goto('/#/chat');
    await createAgent(page, 'Juniper');
    await page.goto('/?share_title=Trail%20idea&share_text=Walk%20the%20coast%20path%20at%20dawn');
    await waitForLoci(page);
    await expect(page).toHaveURL(/\/#\/documents$/);
    const item = page.getByTestId('share-item');
    await expect(item).toHaveCount(1);
    await expect(item).toContainText('Walk the coast path at dawn');
    // Nothing is imported until the user adds it.
    await expect(page.getByTestId('import-job')).toHaveCount(0);
    await page.getByRole('button', { name: 'Add to Juniper' }).click();
    await expectJobs(page, 'indexed', 1);
    await expect(libraryItem(page, 'Trail idea')).toBeVisible();
    await expect(page.getByTestId('share-item')).toHaveCount(0);
    // The address no longer carries the share: a reload does not share it again.
    await page.reload();
    await expect(libraryItem(page, 'Trail idea')).toBeVisible();
    await expect(page.getByTestId('import-job')).toHaveCount(0);
    await expect(page.getByTestId('share-item')).toHaveCount(0);
    expect(externalRequests).toEqual([]);
  });

  test('U142 U200: files shared to the installed app (POST share target) wait in the inbox, then import', async ({
    page,
    externalRequests,
  }) => {
    await page.goto('/#/chat');
    await createAgent(page, 'Juniper');
    await waitForServiceWorker(page);
    const handbook = readFileSync(`${FIXTURES}/handbook.md`, 'utf8');
    const pdf = readFileSync(`${FIXTURES}/sample.pdf`).toString('base64');
    // What the OS share sheet does: a multipart POST of the files and text to the share target.
    await page.evaluate(
      ({ handbook, pdf }) => {
        const form = document.createElement('form');
        form.method = 'post';
        form.enctype = 'multipart/form-data';
        form.action = './share-target';
        const files = new DataTransfer();
        files.items.add(new File([handbook], 'handbook.md', { type: 'text/markdown' }));
        const bytes = Uint8Array.from(atob(pdf), (c) => c.charCodeAt(0));
        files.items.add(new File([bytes], 'sample.pdf', { type: 'application/pdf' }));
        const input = document.createElement('input');
        input.type = 'file';
        input.name = 'share_files';
        input.multiple = true;
        input.files = files.files;
        const title = document.createElement('input');
        title.name = 'share_title';
        title.value = 'From my phone';
        const text = document.createElement('input');
        text.name = 'share_text';
        text.value = 'Read these before the trip.';
        form.append(input, title, text);
        document.body.append(form);
        form.submit();
      },
      { handbook, pdf },
    );
    await page.waitForURL(/\/#\/documents$/);
    await waitForLoci(page);
    // It waits in the inbox with its files; added, all three are imported (U200).
    const item = page.getByTestId('share-item');
    await expect(item).toHaveCount(1);
    await expect(item).toContainText('handbook.md');
    await expect(item).toContainText('sample.pdf');
    await expect(page.getByTestId('import-job')).toHaveCount(0);
    await page.getByRole('button', { name: 'Add to Juniper' }).click();
    await expectJobs(page, 'indexed', 3);
    await expect(libraryItem(page, 'From my phone')).toBeVisible();
    await expect(page.getByTestId('library-item')).toHaveCount(3);
    // The inbox is emptied, and a reload imports nothing again.
    const left = await page.evaluate(
      async () => (await (await caches.open('loci-share-inbox')).keys()).length,
    );
    expect(left).toBe(0);
    await page.reload();
    await expect(page.getByTestId('library-item')).toHaveCount(3);
    await expect(page.getByTestId('import-job')).toHaveCount(0);
    expect(externalRequests).toEqual([]);
  });

  test('U143: the viewer labels where each page of a PDF begins', async ({
    page,
    shoot,
    externalRequests,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openDocuments(page);
    await pick(page, ['sample.pdf']);
    await expectJobs(page, 'indexed', 1);
    await page.getByTestId('library-item').getByRole('link').first().click();
    const text = page.getByTestId('document-text');
    await expect(text).toBeVisible();
    const labels = text.getByTestId('page-label');
    expect(await labels.count()).toBeGreaterThanOrEqual(2);
    await expect(labels.first()).toHaveText('Page 1');
    await expect(labels.nth(1)).toHaveText('Page 2');
    await shoot(page, 'documents-viewer-pdf-1280x800');
    await page.setViewportSize({ width: 390, height: 844 });
    await shoot(page, 'documents-viewer-pdf-390x844');
    expect(await seriousViolations(page)).toEqual([]);
    expect(externalRequests).toEqual([]);
  });

  for (const [w, h, scheme] of [
    [1280, 800, 'light'],
    [390, 844, 'light'],
    [1280, 800, 'dark'],
    [390, 844, 'dark'],
  ] as const) {
    test(`U141: Documents library and viewer at ${w}x${h} (${scheme}) have no serious or critical axe violations`, async ({
      page,
      externalRequests,
    }) => {
      test.setTimeout(90_000);
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width: w, height: h });
      await openDocuments(page);
      await pick(page, ['handbook.md', 'sample.pdf']);
      await expectJobs(page, 'indexed', 2);
      expect(await seriousViolations(page)).toEqual([]);
      // Touch targets: every button and link of the screen is at least 44 px tall.
      const small = await page
        .locator('main button, main a.btn, main label.btn')
        .evaluateAll((els) =>
          els
            .filter((e) => (e as HTMLElement).offsetParent !== null)
            .filter((e) => e.getBoundingClientRect().height < 44)
            .map((e) => e.textContent?.trim()),
        );
      expect(small).toEqual([]);
      await page.getByRole('link', { name: 'Lighthouse Handbook' }).click();
      await expect(page.getByTestId('document-text')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth > window.innerWidth,
      );
      expect(overflow).toBe(false);
      expect(externalRequests).toEqual([]);
    });
  }
});
