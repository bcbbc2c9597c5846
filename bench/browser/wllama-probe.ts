/**
 * `npx tsx bench/browser/wllama-probe.ts <model.gguf> '<settings json>' ...`: one Chromium page per
 * settings object (cross-origin isolated, as the app is), each printing the probe's JSON line.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tests/chromium';
import { serveBundle } from './serve-bundle';
import type { ProbeSettings } from './wllama-probe-entry';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');

const [model, ...runs] = process.argv.slice(2);
if (!model) throw new Error('usage: wllama-probe.ts <model.gguf> <settings json>...');
const served = await serveBundle(path.join(here, 'wllama-probe-entry.ts'), {
  headers: {
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-embedder-policy': 'require-corp',
  },
  files: {
    '/wllama/wllama.wasm': path.join(root, 'node_modules/@wllama/wllama/esm/wasm/wllama.wasm'),
    '/models/model.gguf': path.resolve(model),
  },
});
try {
  for (const json of runs) {
    const settings = {
      modelUrl: '/models/model.gguf',
      threads: 2,
      ...JSON.parse(json),
    } as ProbeSettings;
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage();
      page.on('console', (m) => {
        if (m.type() === 'error') console.error('[page]', m.text());
      });
      await page.goto(served.url);
      await page.waitForFunction(() => (window as unknown as { benchReady?: boolean }).benchReady);
      const result = await page.evaluate(
        (s) => (window as unknown as { probe(s: ProbeSettings): Promise<unknown> }).probe(s),
        settings,
      );
      console.log(JSON.stringify(result));
    } finally {
      await browser.close();
    }
  }
} finally {
  await served.close();
}
