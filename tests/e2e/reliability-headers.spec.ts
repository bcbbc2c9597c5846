/**
 * X70–X74: the server sends each kind of script its own Content-Security-Policy, and the browser
 * enforces it where each one runs. From the page, from every worker script of the build and from
 * the service worker, a fetch to an origin outside the policy is refused before it is sent — the
 * other origin is a real server on another loopback address that answers everyone (CORS `*`) and
 * counts what reaches it — while a fetch to the app's own origin still works.
 */
import { readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Worker } from '@playwright/test';
import { contentSecurityPolicy, responseKind } from '../../scripts/security-headers';
import { expect, test, waitForServiceWorker } from './fixtures';
import { reportReliability } from './helpers/reliability';

const WORKER_SCRIPTS = readdirSync('dist-e2e/assets')
  .filter((name) => /worker/.test(name) && /\.m?js$/.test(name))
  .map((name) => `/assets/${name}`);

/**
 * The other origin: a loopback address outside every policy. (127.0.0.1 on any port is allowed
 * to the LLM worker so a model server on this computer works — ADR 0120.) If a fetch ever left,
 * the fixture would record it as external, or the server would count it.
 */
const OTHER_HOST = '127.0.0.2';

let other: Server;
let otherUrl = '';
let reached = 0;

test.beforeAll(async () => {
  other = createServer((req, res) => {
    reached += 1;
    res.writeHead(200, { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'text/plain' });
    res.end('reached');
  });
  await new Promise<void>((resolve) => other.listen(0, OTHER_HOST, resolve));
  otherUrl = `http://${OTHER_HOST}:${(other.address() as AddressInfo).port}/probe`;
});
test.afterAll(async () => {
  await new Promise((resolve) => other.close(resolve));
});

/** Fetches `url` where `evaluate` runs, and says whether it came back or was refused. */
async function tryFetch(
  evaluate: (fn: (url: string) => Promise<string>, url: string) => Promise<string>,
  url: string,
): Promise<string> {
  return evaluate(
    (u) =>
      fetch(u).then(
        (r) => `fetched ${r.status}`,
        (e: unknown) => `refused ${(e as Error).name}`,
      ),
    url,
  );
}

test('X70: each response carries the policy of its kind, with Referrer-Policy and nosniff', async ({
  request,
}) => {
  const paths = ['/', '/index.html', ...WORKER_SCRIPTS, '/sw.js', '/share-target-sw.js'];
  expect(WORKER_SCRIPTS.length).toBeGreaterThanOrEqual(3);
  for (const path of paths) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    const headers = response.headers();
    expect(headers['content-security-policy'], path).toBe(
      contentSecurityPolicy(responseKind(path)),
    );
    expect(headers['referrer-policy'], path).toBe('no-referrer');
    expect(headers['x-content-type-options'], path).toBe('nosniff');
  }
  expect((await request.get('/')).headers()['content-security-policy']).toContain(
    "frame-ancestors 'none'",
  );
});

test('X71 X72 X73: a fetch to a non-allowed origin is refused from the page, each worker and the service worker', async ({
  page,
  context,
  externalRequests,
}) => {
  await page.goto('/#/chat');
  await waitForServiceWorker(page);
  const places: { name: string; evaluate: Parameters<typeof tryFetch>[0] }[] = [
    { name: 'page', evaluate: (fn, url) => page.evaluate(fn, url) },
  ];
  for (const script of WORKER_SCRIPTS) {
    const created = page.waitForEvent('worker', (w) => w.url().endsWith(script));
    await page.evaluate((url) => {
      // Kept on window so the worker is not collected while the test talks to it.
      const held = ((window as unknown as { __held?: unknown[] }).__held ??= []);
      held.push(new Worker(url, { type: 'module' }));
    }, script);
    const worker: Worker = await created;
    places.push({ name: script, evaluate: (fn, url) => worker.evaluate(fn, url) });
  }
  const sw = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  places.push({ name: 'service worker', evaluate: (fn, url) => sw.evaluate(fn, url) });

  const outcomes: string[] = [];
  let refused = 0;
  let ownOrigin = 0;
  for (const place of places) {
    const before = reached;
    const away = await tryFetch(place.evaluate, otherUrl);
    outcomes.push(`${place.name}: other origin ${away}, reached ${reached - before}`);
    if (away.startsWith('refused') && reached === before) refused += 1;
    const home = await tryFetch(place.evaluate, '/manifest.webmanifest');
    outcomes.push(`${place.name}: own origin ${home}`);
    if (home === 'fetched 200') ownOrigin += 1;
  }
  reportReliability({
    name: 'headers',
    rule: 'X70-X74',
    trials: places.length * 2,
    failures: places.length - refused + (places.length - ownOrigin),
    lost: 0,
    details: { places: places.length, refused, ownOriginFetched: ownOrigin, reached },
  });
  expect(refused, outcomes.join('\n')).toBe(places.length);
  expect(ownOrigin, outcomes.join('\n')).toBe(places.length);
  expect(reached).toBe(0);
  expect(externalRequests).toEqual([]);
});
