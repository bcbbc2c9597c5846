/**
 * Cross-origin isolation (P11–P13, ADR 0114): the served app is isolated (COOP same-origin, COEP
 * require-corp), and downloads from the model hosts still work under it. Nothing here reaches
 * the internet: Playwright answers the model hosts' URLs with the bytes of local fixtures and the
 * CORS headers those hosts send, so the browser applies its real CORS, COEP and CSP checks.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { test, expect, type Route } from '@playwright/test';

const GGUF = readFileSync('tests/fixtures/models/loci-fixture-llama.gguf');
const SHA = createHash('sha256').update(GGUF).digest('hex');
const LOCAL = /^(https?|wss?):\/\/(127\.0\.0\.1|localhost)(:\d+)?\//;
const INTERNAL = /^(data|blob|about|chrome|chrome-extension|devtools):/;
const QWEN =
  'https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/qwen2.5-0.5b-instruct-q4_k_m.gguf';
// Hugging Face's CORS headers: any origin (`Access-Control-Allow-Origin: *`), range headers
// exposed. (Its resolve URLs redirect to a file CDN with the same headers; a redirect answered by
// Playwright inside a worker fails to fetch, so the file is answered at the resolve URL itself.)
const HF_CORS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers':
    'X-Repo-Commit,X-Request-Id,X-Error-Code,X-Error-Message,X-Total-Count,ETag,Link,Accept-Ranges,Content-Range',
};
// raw.githubusercontent.com (web-llm's model libraries) sends these.
const GITHUB_RAW = {
  'access-control-allow-origin': '*',
  'cross-origin-resource-policy': 'cross-origin',
};

function modelHost(route: Route): Promise<void> | undefined {
  const url = route.request().url();
  if (url === QWEN) {
    return route.fulfill({
      status: 200,
      headers: { ...HF_CORS, 'content-type': 'application/octet-stream', etag: `"${SHA}"` },
      body: GGUF,
    });
  }
  if (url === QWEN.replace('/resolve/', '/raw/')) {
    return route.fulfill({
      status: 200,
      headers: { ...HF_CORS, 'content-type': 'text/plain' },
      body: `version https://git-lfs.github.com/spec/v1\noid sha256:${SHA}\nsize ${GGUF.length}\n`,
    });
  }
  if (url === 'https://huggingface.co/Xenova/bge-small-en-v1.5/resolve/main/config.json') {
    return route.fulfill({ status: 200, headers: { ...HF_CORS }, json: { model_type: 'bert' } });
  }
  if (url.startsWith('https://raw.githubusercontent.com/')) {
    return route.fulfill({
      status: 200,
      headers: GITHUB_RAW,
      body: Buffer.from([0, 97, 115, 109]),
    });
  }
  return undefined;
}

test('P11 P12: the app is cross-origin isolated, and a CPU model downloads from the (emulated) model host and chats', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  const escaped: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (LOCAL.test(url) || INTERNAL.test(url)) return route.fallback();
    const answered = modelHost(route);
    if (answered) return answered;
    escaped.push(url);
    return route.abort('blockedbyclient');
  });
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
  });
  page.on('worker', (w) => w.on('console', (m) => problems.push(`worker: ${m.text()}`)));
  await page.goto('/#/models');
  expect(await page.evaluate(() => self.crossOriginIsolated)).toBe(true);

  // web-llm and transformers.js style fetches: Cache Storage `add` and plain CORS `fetch`.
  const fetched = await page.evaluate(async () => {
    const cache = await caches.open('isolation-check');
    await cache.add('https://huggingface.co/Xenova/bge-small-en-v1.5/resolve/main/config.json');
    const config = await (await cache.match(
      'https://huggingface.co/Xenova/bge-small-en-v1.5/resolve/main/config.json',
    ))!.json();
    const lib = await fetch('https://raw.githubusercontent.com/mlc-ai/binary-mlc-llm-libs/x.wasm');
    await caches.delete('isolation-check');
    return { config, lib: lib.ok, size: (await lib.arrayBuffer()).byteLength };
  });
  expect(fetched).toEqual({ config: { model_type: 'bert' }, lib: true, size: 4 });

  // wllama's path from the LLM worker: the resolve URL, the OPFS cache, then llama.cpp.
  const row = page.getByTestId('cpu-models').locator('[data-model-id^="Qwen2.5-0.5B"]');
  await row.getByRole('button', { name: /^Download/ }).click();
  await expect(row.getByTestId('model-state').or(page.getByTestId('model-error'))).toBeVisible({
    timeout: 90_000,
  });
  const failure = await page.evaluate(() =>
    JSON.stringify(
      (
        window as unknown as { __loci: { manager: { getState(): unknown } } }
      ).__loci.manager.getState(),
    ),
  );
  expect(escaped).toEqual([]);
  expect(failure).not.toContain('"failed"');
  expect(problems.filter((p) => /fail|error|refused|block/i.test(p))).toEqual([]);
  await expect(row.getByTestId('model-state')).toContainText('Loaded and ready to chat');
  await expect(page.getByTestId('cpu-threads')).not.toContainText('not cross-origin isolated');
  await expect(row.getByTestId('model-state')).toContainText('MB');
  expect(escaped).toEqual([]);
});
