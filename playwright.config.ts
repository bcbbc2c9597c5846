import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './tests/chromium';

const port = Number(process.env.LOCI_E2E_PORT ?? 4317);
// A second checkout's build (or a parallel run) can serve another folder on another port.
const dir = process.env.LOCI_E2E_DIR ?? 'dist-e2e';
const results = process.env.LOCI_E2E_RESULTS ?? 'test-artifacts/e2e-results.json';

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: dir === 'dist-e2e' ? 'test-results' : `test-results/${dir}`,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: results }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  webServer: {
    // The suite runs against the built e2e bundle (see package.json build:e2e), served statically.
    command: `npx vite preview --outDir ${dir} --host 127.0.0.1 --port ${port} --strictPort`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
