/**
 * What the built app makes every device download and keep (issue 18, point 13): the service
 * worker's precache lists each file once and leaves out web-llm's library, which it caches on
 * first use instead; one copy of each wasm ships. Reads the e2e build this suite serves — the
 * production build comes from the same vite.config.ts.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test, expect } from './fixtures';

const OUT = 'dist-e2e';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [relative(OUT, path)];
  });
}

function precacheUrls(sw: string): string[] {
  return [...sw.matchAll(/url:"([^"]+)"/g)].map((m) => m[1] ?? '');
}

test('U157: the precache lists each file once and not the web-llm library, which is cached when first loaded', async ({
  page,
}) => {
  const sw = readFileSync(join(OUT, 'sw.js'), 'utf8');
  const urls = precacheUrls(sw);
  expect(urls.length).toBeGreaterThan(5);
  expect(urls.filter((u, i) => urls.indexOf(u) !== i)).toEqual([]);
  const library = files(OUT).filter((f) => /^assets\/webllm-lib-[^/]*\.js$/.test(f));
  expect(library).toHaveLength(1);
  expect(urls).not.toContain(library[0]);
  expect(sw).toContain('loci-webllm-code');
  // The route really matches the library's URL (and not the shell).
  const pattern =
    /registerRoute\((\/.*?\/)[a-z]*,new \w+\.CacheFirst\(\{cacheName:"loci-webllm-code"/.exec(sw);
  expect(pattern).not.toBeNull();
  const source = (pattern?.[1] ?? '').slice(1, -1);
  const route = new RegExp(source);
  expect(route.test(`/${library[0]}`)).toBe(true);
  expect(route.test('/index.html')).toBe(false);

  // Installed in Chromium, the service worker's precache holds the shell and not the library.
  await page.goto('/#/home');
  await page.waitForFunction(async () => (await navigator.serviceWorker.ready).active !== null);
  const cached = await page.evaluate(async () => {
    const names = await caches.keys();
    const all: string[] = [];
    for (const name of names) {
      const cache = await caches.open(name);
      all.push(...(await cache.keys()).map((r) => new URL(r.url).pathname));
    }
    return all;
  });
  expect(cached.length).toBeGreaterThan(5);
  expect(cached.some((p) => p.includes('webllm-lib-'))).toBe(false);
  expect(cached.some((p) => p.endsWith('/index.html'))).toBe(true);
});

test('U157: one copy of each wasm ships', () => {
  const wasm = files(OUT).filter((f) => f.endsWith('.wasm'));
  const names = wasm.map((f) =>
    f
      .split('/')
      .pop()
      ?.replace(/-[A-Za-z0-9_-]{8}\.wasm$/, '.wasm'),
  );
  expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  expect(wasm.some((f) => f.startsWith('ort/'))).toBe(true);
});
