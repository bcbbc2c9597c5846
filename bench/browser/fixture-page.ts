/**
 * A bench page in Debian's Chromium with the CPU engine's files: wllama's wasm and the fixture
 * GGUF model (tests/fixtures/models), and any more `files` (URL path → file). Serves `entry`, waits for its `benchReady` flag, hands the
 * page to `use`, then closes the browser and the server. The llm-cpu and llm-endpoint sections
 * both measure through it.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tests/chromium';
import { serveBundle } from './serve-bundle';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export async function withFixturePage<T>(
  entry: string,
  use: (page: Page) => Promise<T>,
  headers?: Record<string, string>,
  files: Record<string, string> = {},
): Promise<T> {
  const served = await serveBundle(entry, {
    ...(headers ? { headers } : {}),
    files: {
      '/wllama/wllama.wasm': path.join(root, 'node_modules/@wllama/wllama/esm/wasm/wllama.wasm'),
      '/models/fixture.gguf': path.join(root, 'tests/fixtures/models/loci-fixture-llama.gguf'),
      ...files,
    },
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    await page.goto(served.url);
    await page.waitForFunction(() => (window as unknown as { benchReady?: boolean }).benchReady);
    return await use(page);
  } finally {
    await browser.close();
    await served.close();
  }
}
