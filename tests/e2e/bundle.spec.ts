/**
 * What the built app makes every device download and keep (issue 18, point 13): the service
 * worker's precache lists each file once and leaves out the engines' libraries (web-llm, wllama),
 * which it caches on first use instead — then serves offline; one copy of each wasm ships
 * (U157, U195, U196). `node scripts/bundle-report.mjs` prints the same figures for a build. Reads the e2e build this suite serves — the
 * production build comes from the same vite.config.ts.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test, expect } from './fixtures';

/** The e2e build this suite serves (playwright.config.ts reads the same variable). */
const OUT = process.env.LOCI_E2E_DIR ?? 'dist-e2e';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [relative(OUT, path)];
  });
}

function precacheUrls(sw: string): string[] {
  return [...sw.matchAll(/url:"([^"]+)"/g)].map((m) => m[1] ?? '');
}

/** The engines' library chunks, each only of use once the user picks a model of that engine. */
const ENGINE_CHUNKS = [
  { name: 'web-llm', file: /^assets\/webllm-lib-[^/]*\.js$/, cache: 'loci-webllm-code' },
  { name: 'wllama', file: /^assets\/wllama-lib-[^/]*\.js$/, cache: 'loci-wllama-code' },
];

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
    // The precache only: what this visit already fetched (wllama's chunk, at startup) goes to
    // the runtime caches once the worker is active (P30, ADR 0189).
    const names = (await caches.keys()).filter((name) => name.includes('precache'));
    const all: string[] = [];
    for (const name of names) {
      const cache = await caches.open(name);
      all.push(...(await cache.keys()).map((r) => new URL(r.url).pathname));
    }
    return all;
  });
  expect(cached.length).toBeGreaterThan(5);
  expect(cached.some((p) => p.includes('webllm-lib-'))).toBe(false);
  expect(cached.some((p) => p.includes('wllama-lib-'))).toBe(false);
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

test('U195: no engine library is precached, and each engine chunk in dist/ is one of them', () => {
  const sw = readFileSync(join(OUT, 'sw.js'), 'utf8');
  const urls = precacheUrls(sw);
  for (const engine of ENGINE_CHUNKS) {
    const chunk = files(OUT).filter((f) => engine.file.test(f));
    expect(chunk, engine.name).toHaveLength(1);
    expect(urls, engine.name).not.toContain(chunk[0]);
  }
  // No precached file carries an engine's code under another name (a chunk split off or
  // renamed by a bundler change would slip past the file-name rule above).
  for (const url of urls.filter((u) => /\.m?js$/.test(u))) {
    const code = readFileSync(join(OUT, url), 'utf8');
    expect(code.includes('tvmjs'), `${url} holds web-llm's runtime`).toBe(false);
    expect(code.includes('wllamaAction'), `${url} holds wllama's library`).toBe(false);
  }
});

test('P35: the code of every screen loaded on demand, and its style, is in the precache', () => {
  const urls = precacheUrls(readFileSync(join(OUT, 'sw.js'), 'utf8'));
  const screens = files(OUT).filter((f) =>
    /^assets\/[A-Z][A-Za-z]*Screen-[^/]*\.(js|css)$/.test(f),
  );
  for (const name of ['Chat', 'Writer', 'Memory', 'Documents', 'Models', 'Settings'])
    expect(
      screens.some((f) => f.startsWith(`assets/${name}Screen-`) && f.endsWith('.js')),
      `${name}Screen has a chunk of its own`,
    ).toBe(true);
  expect(screens.filter((f) => !urls.includes(f))).toEqual([]);
});

test('U196: one ONNX Runtime wasm in dist/, the self-hosted one the embedder loads', () => {
  const ort = files(OUT).filter((f) => /(^|\/)ort-wasm[^/]*\.wasm$/.test(f));
  expect(ort).toEqual(['ort/ort-wasm-simd-threaded.asyncify.wasm']);
});

test('U195: an engine library fetched once is cached by the service worker and served offline', async ({
  page,
  context,
}) => {
  const chunks = ENGINE_CHUNKS.map((engine) => ({
    ...engine,
    url: `/${files(OUT).find((f) => engine.file.test(f)) ?? ''}`,
  }));
  await page.goto('/#/home');
  await page.waitForFunction(async () => (await navigator.serviceWorker.ready).active !== null);
  await page.reload();
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null))
    .toBe(true);
  // web-llm's 6 MB library is not cached before first use. (wllama's may be: the LLM worker asks
  // wllama's CacheManager, in the same chunk, whether a CPU model is downloaded — at startup,
  // whenever the page asks, so whether it is held yet depends on timing.)
  const before = await page.evaluate(
    async (names) => {
      const held: string[] = [];
      for (const name of names) {
        if (await caches.has(name))
          held.push(...(await (await caches.open(name)).keys()).map((r) => r.url));
      }
      return held;
    },
    chunks.filter((c) => c.name === 'web-llm').map((c) => c.cache),
  );
  expect(before).toEqual([]);
  // First use, as the LLM worker's import does it: through the service worker, read whole (an
  // import reads the body; a response dropped unread may be cancelled before the cache holds it).
  for (const chunk of chunks) {
    const first = await page.evaluate(async (url) => {
      const res = await fetch(url);
      return { status: res.status, size: (await res.arrayBuffer()).byteLength };
    }, chunk.url);
    expect(first, chunk.name).toEqual({
      status: 200,
      size: statSync(join(OUT, chunk.url.slice(1))).size,
    });
  }
  // The cache write finishes after the response (Workbox waits on it in the fetch event); on a
  // loaded machine the 6 MB web-llm chunk's write can take seconds.
  await expect
    .poll(
      () =>
        page.evaluate(
          async (list) => {
            const held: string[] = [];
            for (const c of list) {
              const cache = await caches.open(c.cache);
              // The server answers `Vary: Origin`, and the LLM worker's import (with an Origin
              // header) may have stored the chunk first: the routes ignore Vary (ADR 0189).
              if (await cache.match(c.url, { ignoreVary: true })) held.push(c.name);
            }
            return held;
          },
          chunks.map((c) => ({ name: c.name, cache: c.cache, url: c.url })),
        ),
      { timeout: 30_000 },
    )
    .toEqual(chunks.map((c) => c.name));
  // Offline, the same request is answered from that cache, whole.
  await context.setOffline(true);
  for (const chunk of chunks) {
    const offline = await page.evaluate(async (url) => {
      const res = await fetch(url);
      return { status: res.status, size: (await res.arrayBuffer()).byteLength };
    }, chunk.url);
    expect(offline, chunk.name).toEqual({
      status: 200,
      size: statSync(join(OUT, chunk.url.slice(1))).size,
    });
  }
  await context.setOffline(false);
});
