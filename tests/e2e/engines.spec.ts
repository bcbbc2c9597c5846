import { chromium, test as plainTest, type Page } from '@playwright/test';
import { CHROMIUM_PATH, SOFTWARE_WEBGPU_ARGS } from '../chromium';
import { expect, test } from './fixtures';

// The engines harness page exists only in the e2e build (scripts/vite-plugin-loci-assets.ts).
const HARNESS = '/tests/e2e/engines-harness/index.html';
const TEXTS = [
  'my sister and her daughter',
  'pizza and noodles for dinner',
  '我的生日在三月',
  'zzz',
];

async function openHarness(page: Page): Promise<void> {
  await page.goto(HARNESS);
  await expect(page.locator('#status')).toHaveText('ready');
}

/**
 * Runs `fn` on the harness in a second Chromium with SwiftShader's WebGPU (a software adapter);
 * like the shared fixture, it fails if any request leaves 127.0.0.1.
 */
async function withSoftwareWebGpu<T>(fn: (page: Page) => Promise<T>): Promise<T> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: SOFTWARE_WEBGPU_ARGS,
  });
  try {
    const context = await browser.newContext({ baseURL: test.info().project.use.baseURL });
    const leaks: string[] = [];
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (/^https?:\/\/127\.0\.0\.1(:\d+)?\//.test(url) || /^(data|blob):/.test(url))
        return route.fallback();
      leaks.push(url);
      return route.abort('blockedbyclient');
    });
    const page = await context.newPage();
    await openHarness(page);
    const result = await fn(page);
    expect(leaks, 'requests that left 127.0.0.1').toEqual([]);
    return result;
  } finally {
    await browser.close();
  }
}

function embedIn(page: Page, device: 'wasm' | 'webgpu') {
  return page.evaluate(([d, texts]) => window.__engines!.embed(d, texts), [device, TEXTS] as const);
}

test('E26: the embed worker runs the fixture model on WASM and the same vectors come back under WebGPU (SwiftShader)', async ({
  page,
  externalRequests,
}) => {
  test.setTimeout(120_000);
  await openHarness(page);
  const wasm = await embedIn(page, 'wasm');
  expect(wasm.device).toBe('wasm');
  expect(wasm.vectors).toHaveLength(TEXTS.length);
  expect(wasm.vectors[0]).toHaveLength(32);
  expect(wasm.top).toBe('t0');

  const gpu = await withSoftwareWebGpu((gpuPage) => embedIn(gpuPage, 'webgpu'));
  expect(gpu.device, 'the fixture ran on the WebGPU execution provider').toBe('webgpu');
  for (let i = 0; i < TEXTS.length; i += 1) {
    const a = wasm.vectors[i]!;
    const b = gpu.vectors[i]!;
    const maxDiff = Math.max(...a.map((x, j) => Math.abs(x - (b[j] ?? 0))));
    expect(maxDiff, `vector ${i} differs between wasm and webgpu`).toBeLessThan(1e-4);
  }
  expect(externalRequests).toEqual([]);
});

test('E18: in the e2e build the LLM worker hosts the scripted engine and streams its reply', async ({
  page,
  externalRequests,
}) => {
  await openHarness(page);
  const result = await page.evaluate(() => window.__engines!.scriptedChat('Hello, who is there?'));
  expect(result.text).toBe('Hello from the LLM worker!');
  expect(result.deltas.length).toBeGreaterThan(3);
  expect(result.deltas.join('')).toBe(result.text);
  expect(result.tokenizer).toMatch(/llama3/);
  expect(externalRequests).toEqual([]);
});

test("E3: with no GPU adapter every catalog model says it won't run, and why", async ({
  page,
  externalRequests,
}) => {
  await openHarness(page);
  const catalog = await page.evaluate(() => window.__engines!.catalog());
  expect(catalog.probe).toBe('no_adapter');
  expect(catalog.entries.length).toBeGreaterThan(5);
  for (const entry of catalog.entries) {
    expect(entry.verdict.type).toBe('wont_run');
    expect(entry.verdict.reason).toMatch(/No usable GPU/);
  }
  expect(externalRequests).toEqual([]);
});

test('E19: offline, a model download fails at once with a clear network_unavailable message', async ({
  page,
  context,
  externalRequests,
}) => {
  await openHarness(page);
  await page.evaluate(() => window.__engines!.catalog()); // starts the LLM worker while online
  await context.setOffline(true);
  const result = await page.evaluate(() =>
    window.__engines!.download('Qwen2.5-0.5B-Instruct-q4f16_1-MLC'),
  );
  expect(result).toMatchObject({
    ok: false,
    code: 'network_unavailable',
    message: expect.stringMatching(/offline/),
  });
  expect(externalRequests).toEqual([]);
});

plainTest(
  'E19: with the network blocked, web-llm\'s "Failed to fetch" in the worker becomes network_unavailable',
  async ({ page, context }) => {
    plainTest.setTimeout(90_000);
    const attempted: string[] = [];
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (/^https?:\/\/127\.0\.0\.1(:\d+)?\//.test(url) || /^(data|blob):/.test(url))
        return route.fallback();
      attempted.push(url);
      return route.abort('internetdisconnected');
    });
    await openHarness(page);
    const result = await page.evaluate(() =>
      window.__engines!.download('Qwen2.5-0.5B-Instruct-q4f16_1-MLC'),
    );
    expect(result).toMatchObject({ ok: false, code: 'network_unavailable' });
    // Only the user-started download tried to leave (rule P10): the model's own host.
    expect(attempted.length).toBeGreaterThan(0);
    for (const url of attempted)
      expect(url).toMatch(/^https:\/\/(huggingface\.co|raw\.githubusercontent\.com)\//);
  },
);

test("E3: with only a software WebGPU adapter every catalog model says it won't run, and why", async () => {
  test.setTimeout(120_000);
  const catalog = await withSoftwareWebGpu((page) =>
    page.evaluate(() => window.__engines!.catalog()),
  );
  expect(catalog.probe).toBe('adapter');
  expect(catalog.llm).toEqual({ type: 'none', reason: 'software_adapter' });
  expect(catalog.entries.length).toBeGreaterThan(5);
  for (const entry of catalog.entries) {
    expect(entry.verdict).toMatchObject({
      type: 'wont_run',
      reason: expect.stringMatching(/software GPU/),
    });
  }
});

plainTest(
  'E21: with the network blocked, a Hub embedding model fails to load with network_unavailable',
  async ({ page, context }) => {
    const attempted: string[] = [];
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (/^https?:\/\/127\.0\.0\.1(:\d+)?\//.test(url) || /^(data|blob):/.test(url))
        return route.fallback();
      attempted.push(url);
      return route.abort('internetdisconnected');
    });
    await openHarness(page);
    const result = await page.evaluate(() =>
      window.__engines!.loadEmbedModel('Xenova/bge-small-en-v1.5'),
    );
    expect(result).toMatchObject({ ok: false, code: 'network_unavailable' });
    expect(attempted.length).toBeGreaterThan(0);
    // Only the model's files were asked of the Hub; the ONNX Runtime never comes from a CDN.
    for (const url of attempted)
      expect(url).toMatch(/^https:\/\/huggingface\.co\/Xenova\/bge-small-en-v1\.5\//);
  },
);

test('W5: a real worker that throws rejects every pending call with worker_crashed, and restarts', async ({
  page,
  externalRequests,
}) => {
  await openHarness(page);
  const result = await page.evaluate(() => window.__engines!.crashingWorker());
  expect(result.first).toEqual(['worker_crashed', 'worker_crashed']);
  expect(result.afterRestart).toEqual(['worker_crashed', 'worker_crashed']);
  expect(externalRequests).toEqual([]);
});

test.describe('the Models screen', () => {
  test('E3: with no GPU the catalog renders every model as "won\'t run" with the reason', async ({
    page,
    shoot,
    externalRequests,
  }) => {
    await page.goto('/#/models');
    const rows = page.getByTestId('model-row');
    await expect(rows.first()).toBeVisible({ timeout: 30_000 });
    expect(await rows.count()).toBeGreaterThan(5);
    await expect(
      page.locator('[data-testid="model-row"]:not([data-verdict="wont_run"])'),
    ).toHaveCount(0);
    await expect(rows.first()).toContainText('No usable GPU');
    await expect(page.getByTestId('model-catalog')).toContainText('Qwen2.5 1.5B');
    await shoot(page, 'models-no-gpu');
    expect(externalRequests).toEqual([]);
  });

  test('E3: with a software adapter the catalog renders every model as "won\'t run" because of it', async () => {
    test.setTimeout(120_000);
    const text = await withSoftwareWebGpu(async (page) => {
      await page.goto('/#/models');
      const rows = page.getByTestId('model-row');
      await expect(rows.first()).toBeVisible({ timeout: 30_000 });
      await expect(
        page.locator('[data-testid="model-row"]:not([data-verdict="wont_run"])'),
      ).toHaveCount(0);
      await page.screenshot({ path: 'test-artifacts/screenshots/models-software-adapter.png' });
      return rows.first().innerText();
    });
    expect(text).toMatch(/software GPU/);
  });

  test('E19: offline, downloading a model shows a clear network error', async ({
    page,
    context,
    shoot,
    externalRequests,
  }) => {
    await page.goto('/#/models');
    const row = page.locator(
      '[data-testid="model-row"][data-model-id="Qwen2.5-0.5B-Instruct-q4f16_1-MLC"]',
    );
    await expect(row).toBeVisible({ timeout: 30_000 });
    await context.setOffline(true);
    await row.getByRole('button', { name: /^Download/ }).click();
    await row.getByRole('button', { name: /^Confirm download of/ }).click();
    const error = page.getByTestId('model-error');
    await expect(error).toHaveAttribute('data-code', 'network_unavailable');
    await expect(error).toBeVisible();
    await shoot(page, 'models-offline-download');
    expect(externalRequests).toEqual([]);
  });
});
