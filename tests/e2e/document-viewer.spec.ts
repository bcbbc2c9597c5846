/**
 * The document viewer formats Markdown (U197–U199): a heading, bold, a list and a table render
 * as such with no Markdown syntax showing; opening the viewer at a passage marks the blocks
 * that passage covers and brings them into view; "Source" shows the exact text with the exact
 * cited characters marked, and the choice lasts for the tab's session; a hostile Markdown file
 * runs nothing; an archival search hit names the document and passage and shows no syntax.
 */
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { createAgent, dismissToast, seriousViolations } from './helpers/loci';

interface StoreWindow {
  __loci: {
    store: {
      listDocuments(agentId: string): Promise<{ id: string; title: string }[]>;
      queryPassages(
        agentId: string,
        query?: { documentId?: string },
      ): Promise<{ id: string; text: string; source: { chunk?: number } }[]>;
    };
  };
}

const filler = (topic: string) =>
  Array.from(
    { length: 6 },
    (_, i) =>
      `${topic} note ${i + 1}: walk the gallery, look at the horizon and write what you see in the logbook before the next bell.`,
  ).join(' ');

const GUIDE = [
  '---',
  'title: "Keeper\'s Guide"',
  'station: North Light',
  '---',
  '',
  "# Keeper's Guide",
  '',
  'Read this **before** your first night shift.',
  '',
  '## Daily duties',
  '',
  filler('Morning'),
  '',
  filler('Noon'),
  '',
  filler('Evening'),
  '',
  '## Fuel',
  '',
  'Keep the **paraffin** in the red cans in the cellar.',
  '',
  '- Carry two cans at most',
  '- Check every seal',
  '',
  '| Fuel | Cans | Where |',
  '|------|------|-------|',
  '| Paraffin | 2 | Cellar |',
  '| Lamp oil | 1 | Tower |',
].join('\n');

const HOSTILE = [
  '# Hostile notes',
  '',
  '<script>window.__pwned = "script"</script>',
  '',
  '<img src="x" onerror="window.__pwned = \'img\'">',
  '',
  'A [bad link](javascript:alert(1)) and a [bad too](JaVaScRiPt:window.__pwned=1).',
  '',
  '<a href="javascript:alert(2)">raw anchor</a> <iframe src="https://example.org"></iframe>',
].join('\n');

async function importMarkdown(page: Page, name: string, text: string) {
  await page.goto('/#/chat');
  const agentId = await createAgent(page, 'Juniper');
  await page.evaluate(() => (window.location.hash = '#/documents'));
  await expect(page.getByRole('heading', { name: 'Documents', level: 1 })).toBeVisible();
  await dismissToast(page);
  await page
    .getByTestId('file-input')
    .setInputFiles({ name, mimeType: 'text/markdown', buffer: Buffer.from(text) });
  await expect(page.locator('[data-testid="import-job"][data-stage="indexed"]')).toHaveCount(1, {
    timeout: 60_000,
  });
  const [doc] = await page.evaluate(
    (id) => (window as unknown as StoreWindow).__loci.store.listDocuments(id),
    agentId,
  );
  const passages = await page.evaluate(
    ({ agentId, documentId }) =>
      (window as unknown as StoreWindow).__loci.store.queryPassages(agentId, { documentId }),
    { agentId, documentId: doc!.id },
  );
  return { agentId, doc: doc!, passages };
}

test.describe('document viewer', () => {
  test('U197 U198: Markdown renders formatted, a cited passage is marked in view, Source shows the exact text', async ({
    page,
    shoot,
    externalRequests,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    const { doc, passages } = await importMarkdown(page, 'keepers-guide.md', GUIDE);
    const fuel = passages.find((p) => p.text.includes('Lamp oil'))!;
    expect(fuel).toBeDefined();
    await page.evaluate(
      ({ d, p }) =>
        (window.location.hash = `#/documents?doc=${encodeURIComponent(d)}&passage=${encodeURIComponent(p)}`),
      { d: doc.id, p: fuel.id },
    );
    const viewer = page.getByTestId('document-viewer');
    const text = viewer.getByTestId('document-text');
    await expect(text).toHaveAttribute('data-mode', 'formatted');
    // Opened from the library, not from a chat: only "← Library" leads back (U324).
    await expect(viewer.getByRole('link', { name: '← Library' })).toBeVisible();
    await expect(viewer.getByRole('link', { name: '← Chat' })).toHaveCount(0);
    // Rendered: headings, bold, a list and a table; no Markdown syntax shows.
    await expect(text.getByRole('heading', { name: 'Fuel', level: 4 })).toBeVisible();
    await expect(text.locator('strong', { hasText: 'paraffin' })).toBeVisible();
    await expect(text.getByRole('listitem')).toHaveCount(2);
    const table = text.getByRole('table');
    await expect(table.getByRole('cell', { name: 'Lamp oil' })).toBeVisible();
    const shown = (await text.innerText()).trim();
    expect(shown).not.toMatch(/[#|]|\*\*/);
    expect(shown).toContain("Keeper's Guide");
    // The cited passage: the blocks it covers are marked, the first is focused and in view.
    const cited = viewer.getByTestId('cited-passage');
    await expect(cited).toBeInViewport();
    await expect(cited).toBeFocused();
    await expect(text.locator('.block.cited', { has: page.getByRole('table') })).toHaveCount(1);
    await expect(text.locator('.block.cited').last()).toBeInViewport();
    // Blocks outside the passage are not marked.
    await expect(text.locator('.block.cited', { hasText: 'Morning note 1' })).toHaveCount(0);
    // Issue 37 item 6: at the citation, what is shown and the Formatted/Source choice stay in
    // view above it, not scrolled under the header.
    const modes = viewer.getByRole('group', { name: 'Show the document' });
    await expect(modes).toBeInViewport({ ratio: 1 });
    await expect(viewer.getByText(/cited passage \d+/)).toBeInViewport({ ratio: 1 });
    // The front matter reads as properties, not as a YAML code block.
    const front = text.locator('dl.front-matter');
    await expect(front.locator('dt')).toHaveText(['title', 'station']);
    await expect(front.locator('dd')).toHaveText(["Keeper's Guide", 'North Light']);
    await expect(text.locator('code.language-yaml')).toHaveCount(0);
    await dismissToast(page);
    await shoot(page, 'document-viewer-formatted-1280x800');
    expect(await seriousViolations(page)).toEqual([]);

    await page.setViewportSize({ width: 390, height: 844 });
    await cited.scrollIntoViewIfNeeded();
    await expect(cited).toBeInViewport();
    await expect(modes).toBeInViewport({ ratio: 1 });
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth),
    ).toBe(false);
    await shoot(page, 'document-viewer-formatted-390x844');
    expect(await seriousViolations(page)).toEqual([]);
    // The same view in dark, both sizes: the cited block's colours keep their contrast (issue 37).
    await page.emulateMedia({ colorScheme: 'dark' });
    await shoot(page, 'document-viewer-formatted-390x844-dark');
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
    await cited.scrollIntoViewIfNeeded();
    await shoot(page, 'document-viewer-formatted-1280x800-dark');
    expect(await seriousViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });

    // Source: the exact text, with exactly the passage's characters marked.
    await page.setViewportSize({ width: 1280, height: 800 });
    await viewer.getByRole('button', { name: 'Source' }).click();
    await expect(viewer.getByRole('button', { name: 'Source' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(text).toHaveAttribute('data-mode', 'source');
    await expect(text).toContainText('| Lamp oil | 1 | Tower |');
    await expect(viewer.getByTestId('cited-passage')).toHaveText(fuel.text);
    await expect(viewer.getByTestId('cited-passage')).toBeInViewport();
    await shoot(page, 'document-viewer-source-1280x800');
    // The choice lasts for the session: a reload keeps Source.
    await page.reload();
    await expect(page.getByTestId('document-text')).toHaveAttribute('data-mode', 'source');
    await page.getByRole('button', { name: 'Formatted' }).click();
    await expect(page.getByTestId('document-text')).toHaveAttribute('data-mode', 'formatted');
    await expect(page.getByTestId('cited-passage')).toBeInViewport();
    expect(externalRequests).toEqual([]);
  });

  test('U199: an archival search hit names the document and passage, and shows no Markdown', async ({
    page,
    shoot,
    externalRequests,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    const { passages } = await importMarkdown(page, 'keepers-guide.md', GUIDE);
    const fuel = passages.find((p) => p.text.includes('Lamp oil'))!;
    await page.goto('/#/memory');
    const archival = page.getByRole('region', { name: 'Archival storage' });
    await archival.getByRole('searchbox', { name: 'Search archival memory' }).fill('oil');
    await archival.getByRole('combobox', { name: 'Match by' }).selectOption('lexical');
    await archival.getByRole('button', { name: 'Search' }).click();
    const hit = archival.getByRole('list', { name: 'Archival passages' }).locator('li').first();
    await expect(hit).toContainText('Lamp oil · 1 · Tower');
    await expect(hit.getByRole('link')).toHaveText(
      `“Keeper's Guide”, passage ${(fuel.source.chunk ?? 0) + 1} · Keeper's Guide › Fuel`,
    );
    const hitText = (await hit.locator('p').first().innerText()).trim();
    expect(hitText).not.toMatch(/[#|]|\*\*/);
    await dismissToast(page);
    await hit.scrollIntoViewIfNeeded();
    await shoot(page, 'document-viewer-archival-hit-1280x800');
    expect(externalRequests).toEqual([]);
  });

  test('U197: a hostile Markdown file renders inert in the formatted view', async ({
    page,
    shoot,
    externalRequests,
  }) => {
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.setViewportSize({ width: 390, height: 844 });
    const { doc } = await importMarkdown(page, 'hostile.md', HOSTILE);
    await page.getByRole('link', { name: doc.title }).click();
    const text = page.getByTestId('document-text');
    await expect(text).toHaveAttribute('data-mode', 'formatted');
    await expect(text.getByRole('heading', { name: 'Hostile notes', level: 3 })).toBeVisible();
    // Raw HTML shows as the characters typed; unsafe links keep only their words.
    await expect(text).toContainText('<script>window.__pwned = "script"</script>');
    await expect(text).toContainText('<img src="x"');
    await expect(text).toContainText('A bad link and a bad too.');
    await expect(text.locator('script, img, iframe, svg, style, a')).toHaveCount(0);
    expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
    await shoot(page, 'document-viewer-hostile-390x844');
    expect(externalRequests).toEqual([]);
  });
});
