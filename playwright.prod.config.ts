import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './tests/chromium';

/**
 * The production smoke suite (tests/prod, ADR 0133): the production bundle as `npm start` builds
 * and serves it — no test doubles, no `__loci` hooks — on its own port, in Debian's Chromium.
 * `npm test` runs it after the e2e suite; it stays under a minute.
 */
const port = Number(process.env.LOCI_PROD_PORT ?? 4318);

export default defineConfig({
  testDir: 'tests/prod',
  outputDir: 'test-results/prod',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: 'test-artifacts/prod-results.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  webServer: {
    // `npm start` itself (scripts/start.sh): it builds dist/ and serves it with the headers.
    command: `PORT=${port} bash scripts/start.sh`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 180_000,
  },
});
