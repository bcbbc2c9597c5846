/**
 * The production smoke suite (ADR 0133): the bundle `npm start` builds and serves, in Chromium.
 * It loads with no console error, says what a device with no GPU can do, reloads offline from
 * its service worker, asks for persistent storage at the first agent, sends every security
 * header from the server, and contains none of the e2e build's test doubles or fixtures.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import {
  COMMON_HEADERS,
  contentSecurityPolicy,
  responseKind,
  staticHeadersFile,
} from '../../scripts/security-headers';

const LOCAL = /^(https?|wss?):\/\/127\.0\.0\.1(:\d+)?\/|^(data|blob|about|chrome):/;

/**
 * What only the e2e build (`__LOCI_E2E__`, `--mode e2e`) adds: the scripted engine (its marker,
 * config hook), the fixture models (ids, label, URL path, source folder), the `__loci`
 * test hooks and the engines harness page. (The LLM worker's `scriptedPush` RPC method stays in
 * both builds: without the scripted engine it only answers "No scripted engine is loaded".)
 */
const TEST_ONLY = [
  'loci-scripted-engine-test-double',
  'configureScripted',
  'scripted-llama3',
  'loci-fixture-llama',
  'loci-fixture-embed',
  'Loci fixture',
  'models/loci-fixture',
  'tests/fixtures',
  '__loci',
  'engines-harness',
];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

/** Which of `needles` occur in the text files (scripts, pages, manifests) under `dir`. */
function found(dir: string, needles: readonly string[]): Map<string, string[]> {
  const hits = new Map<string, string[]>();
  for (const path of files(dir)) {
    if (!/\.(m?js|html|css|webmanifest|json|txt)$|_headers$/.test(path)) continue;
    const text = readFileSync(path, 'utf8');
    for (const needle of needles)
      if (text.includes(needle)) hits.set(needle, [...(hits.get(needle) ?? []), path]);
  }
  return hits;
}

/** Collects console errors, uncaught exceptions and requests that leave 127.0.0.1. */
function watch(page: Page) {
  const errors: string[] = [];
  const external: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(`uncaught: ${e.message}`));
  page.on('request', (r) => {
    if (!LOCAL.test(r.url())) external.push(r.url());
  });
  return { errors, external };
}

test('the bundle holds no test double, fixture or test hook (the e2e build does)', () => {
  const prod = found('dist', TEST_ONLY);
  expect([...prod.entries()]).toEqual([]);
  expect(existsSync('dist/models')).toBe(false);
  expect(existsSync('dist/tests')).toBe(false);
  // The scan can fail: the e2e build, when present, holds every one of these.
  if (existsSync('dist-e2e')) {
    const e2e = found('dist-e2e', TEST_ONLY);
    expect(TEST_ONLY.filter((needle) => !e2e.has(needle))).toEqual([]);
  }
});

test('it loads with no console error and, with no GPU, says what still works', async ({ page }) => {
  const seen = watch(page);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Loci', level: 1 })).toBeVisible();
  const report = page.getByTestId('device-report');
  await expect(report).toHaveAttribute('data-llm', /no_webgpu|no_adapter/);
  await expect(report).toContainText(/Local chat model: no (WebGPU|GPU)/);
  await expect(report).toContainText('Memory, documents and search still work here');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Models' })
    .click();
  await expect(page.getByTestId('no-webgpu-banner')).toContainText(
    'No usable GPU here: chat runs on the processor instead',
  );
  const rows = page.getByTestId('model-row');
  await expect(rows.first()).toBeVisible();
  // Only real models: the e2e build's fixture and scripted models are not offered.
  await expect(page.getByText(/fixture|scripted/i)).toHaveCount(0);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Settings' })
    .click();
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await expect(page.getByText(/fixture|tests only/i)).toHaveCount(0);
  expect(await page.evaluate(() => '__loci' in window)).toBe(false);
  expect(seen.errors).toEqual([]);
  expect(seen.external).toEqual([]);
});

test('it asks for persistent storage when the first agent is created', async ({ page }) => {
  await page.addInitScript(() => {
    const calls: string[] = [];
    Object.assign(window, { __persistCalls: calls });
    const storage = navigator.storage;
    const persist = storage.persist.bind(storage);
    storage.persist = () => {
      calls.push(new Error().stack ?? 'persist');
      return persist();
    };
  });
  const seen = watch(page);
  await page.goto('/#/chat');
  await expect(page.getByRole('heading', { name: 'Welcome to Loci' })).toBeVisible();
  const calls = () =>
    page.evaluate(() => (window as unknown as { __persistCalls: string[] }).__persistCalls.length);
  expect(await calls()).toBe(0);
  await page.getByLabel('Name', { exact: true }).fill('Juniper');
  await page.getByRole('button', { name: 'Create agent' }).click();
  await expect(page.getByTestId('agent-select').locator('option:checked')).toHaveText('Juniper');
  await expect.poll(calls).toBeGreaterThan(0);
  expect(seen.errors).toEqual([]);
});

test('after one load it reloads offline from the service worker, and every screen opens (P35)', async ({
  page,
  context,
}) => {
  const seen = watch(page);
  await page.goto('/');
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  // No model is cached yet, so "ready to work offline" is not claimed (U171).
  await expect(page.getByTestId('offline-ready')).toHaveCount(0);
  await page.reload();
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null))
    .toBe(true);
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Loci', level: 1 })).toBeVisible();
  await expect(page.getByTestId('device-report')).toContainText('This device');
  // Every screen but Home loads its code on demand (P34); offline it comes from the precache (P35).
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const [link, heading] of [
    ['Memory', 'Memory'],
    ['Documents', 'Documents'],
    ['Models', 'Models'],
    ['Settings', 'Settings'],
    ['Chat', 'Chat'],
  ] as const) {
    await nav.getByRole('link', { name: link }).click();
    await expect(page).toHaveURL(new RegExp(`#/${link.toLowerCase()}`));
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeAttached();
    await expect(page.getByTestId('screen-load-error')).toHaveCount(0);
  }
  await context.setOffline(false);
  expect(seen.errors).toEqual([]);
  expect(seen.external).toEqual([]);
});

test('`npm start` sends the security headers: a policy per script kind, frame-ancestors, nosniff, isolation', async ({
  request,
}) => {
  const workers = readdirSync('dist/assets')
    .filter((name) => /worker/.test(name) && /\.m?js$/.test(name))
    .map((name) => `/assets/${name}`);
  expect(workers.length).toBeGreaterThanOrEqual(3);
  const kinds = new Set<string>();
  for (const path of ['/', '/index.html', ...workers, '/sw.js', '/share-target-sw.js']) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    const headers = response.headers();
    const kind = responseKind(path);
    kinds.add(kind);
    expect(headers['content-security-policy'], path).toBe(contentSecurityPolicy(kind));
    for (const [name, value] of Object.entries(COMMON_HEADERS))
      expect(headers[name.toLowerCase()], `${path} ${name}`).toBe(value);
  }
  expect([...kinds].sort()).toEqual([
    'document',
    'embed-worker',
    'llm-worker',
    'service-worker',
    'worker',
  ]);
  const page = (await request.get('/')).headers()['content-security-policy'];
  expect(page).toContain("frame-ancestors 'none'");
  expect(page).not.toContain("'unsafe-eval'");
  expect(readFileSync('dist/_headers', 'utf8')).toBe(staticHeadersFile());
});

test('with no embedding model (the default) a Markdown file imports and is found by its words (U160)', async ({
  page,
}) => {
  const seen = watch(page);
  await page.goto('/#/chat');
  await page.getByLabel('Name', { exact: true }).fill('Juniper');
  await page.getByRole('button', { name: 'Create agent' }).click();
  await expect(page.getByTestId('agent-select').locator('option:checked')).toHaveText('Juniper');
  await page.goto('/#/documents');
  await expect(page.getByTestId('no-embedder')).toContainText('searched by their words');
  await page.getByTestId('file-input').setInputFiles({
    name: 'garden.md',
    mimeType: 'text/markdown',
    buffer: Buffer.from('# Garden notes\n\nThe **quince** tree needs pruning in late winter.\n'),
  });
  await expect(page.getByTestId('import-job').last()).toHaveAttribute('data-stage', 'indexed', {
    timeout: 30_000,
  });
  await expect(page.getByTestId('library-item')).toHaveCount(1);
  await page.goto('/#/memory');
  const archival = page.getByRole('region', { name: 'Archival storage' });
  await archival.getByRole('searchbox', { name: 'Search archival memory' }).fill('quince');
  await archival.getByRole('combobox', { name: 'Match by' }).selectOption('lexical');
  await archival.getByRole('button', { name: 'Search' }).click();
  await expect(archival.getByText(/1–1 of 1 for “quince”/)).toBeVisible();
  await expect(archival.getByRole('list', { name: 'Archival passages' })).toContainText(
    'needs pruning in late winter',
  );
  expect(seen.errors).toEqual([]);
  expect(seen.external).toEqual([]);
});
