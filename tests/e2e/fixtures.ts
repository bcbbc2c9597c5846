/**
 * The shared Playwright fixture: every test fails if any request leaves 127.0.0.1 (rule P10),
 * and `shoot` saves screenshots under test-artifacts/screenshots for people to look at.
 */
import { test as base, expect, type Page } from '@playwright/test';

const LOCAL = /^(https?|wss?):\/\/(127\.0\.0\.1|localhost)(:\d+)?\//;
const INTERNAL = /^(data|blob|about|chrome|chrome-extension|devtools):/;

export interface Fixtures {
  /** URLs outside 127.0.0.1 that the page tried to reach (they are aborted). */
  externalRequests: string[];
  shoot: (page: Page, name: string) => Promise<void>;
}

export const test = base.extend<Fixtures>({
  externalRequests: async ({ context }, use) => {
    const external: string[] = [];
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (LOCAL.test(url) || INTERNAL.test(url)) return route.fallback();
      external.push(url);
      return route.abort('blockedbyclient');
    });
    context.on('request', (request) => {
      const url = request.url();
      if (!LOCAL.test(url) && !INTERNAL.test(url) && !external.includes(url)) external.push(url);
    });
    await use(external);
    expect(external, 'requests that left 127.0.0.1').toEqual([]);
  },
  // Playwright requires the fixture argument to be a destructuring pattern, even when empty.
  // eslint-disable-next-line no-empty-pattern
  shoot: async ({}, use) => {
    await use(async (page, name) => {
      await page.screenshot({ path: `test-artifacts/screenshots/${name}.png`, fullPage: false });
    });
  },
});

export { expect };

/** Waits until the service worker controls the page (first loads are not controlled). */
export async function waitForServiceWorker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
}
