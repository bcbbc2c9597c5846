/**
 * X71–X73 for the workers the app itself runs (reliability-headers.spec.ts starts a fresh copy
 * of each worker script): once the app has loaded its model and embedded a query, a fetch to a
 * non-allowed origin is refused inside its own LLM worker and its own embedder worker — the
 * browser applies each script's policy to the instance the app talks to.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './fixtures';
import { createAgent, loadScriptedModel } from './helpers/loci';

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
  other = createServer((_req, res) => {
    reached += 1;
    res.writeHead(200, { 'Access-Control-Allow-Origin': '*' });
    res.end('reached');
  });
  await new Promise<void>((resolve) => other.listen(0, OTHER_HOST, resolve));
  otherUrl = `http://${OTHER_HOST}:${(other.address() as AddressInfo).port}/probe`;
});
test.afterAll(async () => {
  await new Promise((resolve) => other.close(resolve));
});

test("X71 X72: the app's own LLM and embedder workers refuse a fetch to another origin", async ({
  page,
  externalRequests,
}) => {
  await page.goto('/#/chat');
  const agentId = await createAgent(page, 'Probe');
  await loadScriptedModel(page);
  // A hybrid search embeds the query: the embedder worker is running after it.
  await page.evaluate(
    (id) =>
      (
        window as unknown as {
          __loci: { search: { search(q: Record<string, unknown>): Promise<unknown> } };
        }
      ).__loci.search.search({
        agentId: id,
        text: 'hiking in Lisbon',
        kinds: ['message', 'passage'],
        mode: 'hybrid',
        page: 1,
        pageSize: 5,
      }),
    agentId,
  );
  const kinds = ['llm.worker', 'embed.worker'];
  await expect
    .poll(() => kinds.filter((k) => page.workers().some((w) => w.url().includes(k))))
    .toEqual(kinds);
  const outcomes: Record<string, string> = {};
  for (const kind of kinds) {
    const worker = page.workers().find((w) => w.url().includes(kind))!;
    const before = reached;
    const away = await worker.evaluate(
      (u) =>
        fetch(u).then(
          (r) => `fetched ${r.status}`,
          (e: unknown) => `refused ${(e as Error).name}`,
        ),
      otherUrl,
    );
    const home = await worker.evaluate(() =>
      fetch('/manifest.webmanifest').then((r) => `fetched ${r.status}`),
    );
    outcomes[kind] = `${away}, reached ${reached - before}; own origin ${home}`;
  }
  expect(outcomes).toEqual({
    'llm.worker': 'refused TypeError, reached 0; own origin fetched 200',
    'embed.worker': 'refused TypeError, reached 0; own origin fetched 200',
  });
  // The trade-off of ADR 0120, shown: the LLM worker may reach a server on this computer (any
  // 127.0.0.1 port, where Ollama or llama.cpp listen); the embedder worker may not.
  const local = createServer((_req, res) => {
    res.writeHead(200, { 'Access-Control-Allow-Origin': '*' });
    res.end('local');
  });
  await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
  const localUrl = `http://127.0.0.1:${(local.address() as AddressInfo).port}/v1/models`;
  const loopback: Record<string, string> = {};
  for (const kind of kinds) {
    const worker = page.workers().find((w) => w.url().includes(kind))!;
    loopback[kind] = await worker.evaluate(
      (u) =>
        fetch(u).then(
          (r) => `fetched ${r.status}`,
          (e: unknown) => `refused ${(e as Error).name}`,
        ),
      localUrl,
    );
  }
  await new Promise((resolve) => local.close(resolve));
  expect(loopback).toEqual({ 'llm.worker': 'fetched 200', 'embed.worker': 'refused TypeError' });
  expect(externalRequests).toEqual([]);
});

test("X71 X177: the app's own document worker refuses a fetch to another origin", async ({
  page,
  externalRequests,
}) => {
  await page.goto('/#/chat');
  await createAgent(page, 'Probe');
  await page.evaluate(() => (window.location.hash = '#/documents'));
  await page.getByTestId('file-input').setInputFiles({
    name: 'note.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('Tide pools.'),
  });
  await expect(page.locator('[data-testid="import-job"][data-stage="indexed"]')).toHaveCount(1);
  const worker = page.workers().find((w) => w.url().includes('document.worker'));
  expect(worker, 'the import ran in the document worker').toBeDefined();
  const before = reached;
  const away = await worker!.evaluate(
    (u) =>
      fetch(u).then(
        (r) => `fetched ${r.status}`,
        (e: unknown) => `refused ${(e as Error).name}`,
      ),
    otherUrl,
  );
  expect(`${away}, reached ${reached - before}`).toBe('refused TypeError, reached 0');
  expect(externalRequests).toEqual([]);
});
