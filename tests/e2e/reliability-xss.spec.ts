/**
 * X30–X32: untrusted text — model output (Markdown), core block values, agent names, archival and
 * recall search results, document titles and passages, citations, and an imported HTML file —
 * carries 34 XSS payloads. Nothing executes (no dialog, no `__x` call, no CSP violation, no
 * console error, no request off 127.0.0.1) and every payload's marker text still shows.
 */
import { writeFileSync } from 'node:fs';
import { test, expect } from './fixtures';
import { createAgent, loadScriptedModelWith, reply, send, setReplyReserve } from './helpers/loci';
import { reportReliability } from './helpers/reliability';

const PAYLOADS: string[] = [
  '<script>__x(1)</script>',
  '<img src=x onerror=__x(2)>',
  '<svg onload=__x(3)>',
  '<svg><script>__x(4)</script></svg>',
  '<iframe src="javascript:__x(5)"></iframe>',
  '[link](javascript:__x(6))',
  '[link](JaVaScRiPt:__x(7))',
  '[link](data:text/html;base64,PHNjcmlwdD5fX3goOCk8L3NjcmlwdD4=)',
  '![pic](x" onerror="__x(9))',
  '<a href="javascript:__x(10)">a</a>',
  '<details open ontoggle=__x(11)>d</details>',
  '<body onload=__x(12)>',
  '<input autofocus onfocus=__x(13)>',
  '<math><mtext><table><mglyph><style><img src=x onerror=__x(14)>',
  '<noscript><p title="</noscript><img src=x onerror=__x(15)>">',
  "<style>@import 'https://evil.example/x.css';</style>",
  '<link rel=stylesheet href=https://evil.example/x.css>',
  '<meta http-equiv="refresh" content="0;url=javascript:__x(18)">',
  '<object data="javascript:__x(19)"></object>',
  '<embed src="javascript:__x(20)">',
  '<form action="javascript:__x(21)"><button>b</button></form>',
  '"><script>__x(22)</script>',
  "'--></style></script><script>__x(23)</script>",
  '<div style="background:url(javascript:__x(24))">s</div>',
  '<a href="&#106;avascript:__x(25)">e</a>',
  '[e](&#x6A;avascript:__x(26))',
  '<img src="https://evil.example/t.png">',
  '<video><source onerror="__x(28)"></video>',
  '<template><script>__x(29)</script></template>',
  "{{constructor.constructor('__x(30)')()}}",
  '${__x(31)}',
  '<base href="https://evil.example/">',
  '\u202e<b onmouseover=__x(33)>b</b>',
  '<a href="#/documents?x=1" onclick="__x(34)">c</a>',
];
/** Each payload is followed by a marker that must still be visible: `XSS1` … `XSS34`. */
const marked = PAYLOADS.map((p, i) => `${p} XSS${i + 1}`);

test('X30 X31 X32: 34 XSS payloads in model output, blocks, agent names, search results, documents and citations run nothing and still show', async ({
  page,
  externalRequests,
}, testInfo) => {
  test.setTimeout(180_000);
  const dialogs: string[] = [];
  const consoleErrors: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  await page.addInitScript(() => {
    const w = window as unknown as { __xss: number[]; __csp: string[]; __x: (i: number) => void };
    w.__xss = [];
    w.__csp = [];
    w.__x = (i) => w.__xss.push(i);
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/#/chat');
  const agentId = await createAgent(page, `Agent ${PAYLOADS[1]} XSSNAME`);
  const found: Record<string, number> = {};
  const missing: string[] = [];
  const expectMarkers = async (where: string, text: () => Promise<string>) => {
    const seen = await text();
    let n = 0;
    for (let i = 1; i <= PAYLOADS.length; i += 1) {
      if (new RegExp(`XSS${i}(?!\\d)`).test(seen)) n += 1;
      else missing.push(`${where}: XSS${i}`);
    }
    found[where] = n;
  };

  // Block values, archival passages, recall messages, a document and its passage: written as a
  // model, an import or another tab would write them.
  const docPassages = await page
    .evaluate(
      async ({ agentId, marked }) => {
        const loci = (
          window as unknown as {
            __loci: {
              store: {
                getBlock(a: string, l: string): Promise<Record<string, unknown>>;
                apply(c: object): Promise<unknown>;
              };
            };
          }
        ).__loci;
        const human = await loci.store.getBlock(agentId, 'human');
        const at = Date.now();
        const value = marked.join('\n');
        await loci.store.apply({
          blocks: [
            {
              block: {
                ...human,
                charLimit: Math.max(Number(human.charLimit), value.length),
                value,
                version: Number(human.version) + 1,
                updatedAt: at,
              },
              history: {
                agentId,
                label: 'human',
                version: Number(human.version) + 1,
                value,
                at,
                source: { type: 'user' },
              },
            },
          ],
          documents: [
            {
              id: 'doc_xss',
              agentId,
              title: `Doc ${marked[0]}`,
              mimeType: 'text/html',
              bytes: 10,
              contentHash: 'x',
              status: 'indexed',
              passages: marked.length,
              embedded: 0,
              at,
            },
          ],
          passages: marked.map((text, i) => ({
            id: `psg_xss_${i}`,
            agentId,
            text,
            tags: [],
            at,
            embedding: null,
            embeddingModel: null,
            dimension: 0,
            source: {
              type: 'document',
              documentId: 'doc_xss',
              chunk: i,
              start: 0,
              end: text.length,
            },
          })),
          messages: marked.map((text, i) => ({
            id: `msg_xss_${i}`,
            agentId,
            role: 'user',
            text,
            at: at - 1000 + i,
            inContext: false,
            tokens: 20,
          })),
        });
        return marked.map((_, i) => `psg_xss_${i}`);
      },
      { agentId, marked },
    )
    .catch((e: unknown) => {
      throw new Error(`seeding the store failed: ${String(e)}`);
    });

  // Model output: every payload in one Markdown reply, plus citations of the hostile passages.
  const cites = docPassages
    .slice(0, 5)
    .map((id) => `[^${id}]`)
    .join(' ');
  // All payloads in one reply need more than the default 512-token reply reserve.
  await setReplyReserve(page, agentId, 2000);
  // The reply is the fallback, not a queued output: the summary call of a flush would take that.
  await loadScriptedModelWith(page, {
    fallback: reply(`${marked.join('\n\n')}\n\nSources ${cites}`),
  });
  await send(page, `Show me ${PAYLOADS[0]} XSSUSER`);
  const bubble = page.getByTestId('assistant-message').last();
  await expect(bubble).toContainText('XSS34');
  await expectMarkers('model output', () => bubble.innerText());
  await expect(
    bubble.locator(
      'script, iframe, object, embed, img, svg, math, form, input, base, meta, link, style, video, [onerror], [onload], [onclick]',
    ),
  ).toHaveCount(0);
  const hrefs = await bubble
    .locator('a')
    .evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
  const badHrefs = hrefs.filter((h) => !/^(https?:|#\/documents\?)/.test(h));
  // Clicking each link must run nothing either.
  for (const link of await bubble.locator('a').all())
    await link.dispatchEvent('click', undefined, { timeout: 2000 }).catch(() => undefined);
  await page.goto('/#/chat');
  await expect(page.getByTestId('user-message').last()).toContainText('XSSUSER');

  const panel = page.locator('#pane-memory');
  await expectMarkers('core block', () => panel.locator('[data-block="human"]').innerText());
  // The archival browser pages its list: count the markers on the page it shows.
  const archivalText = await panel.locator('.archival').innerText();
  found['archival list (page 1)'] = (archivalText.match(/XSS\d+/g) ?? []).length;
  const recall = panel.locator('.recall');
  await recall.locator('input[type="search"]').fill('XSS');
  await recall.getByRole('button', { name: 'Search' }).click();
  await expect(recall.getByRole('list', { name: 'Recall results' })).toBeVisible();
  const recallText = await recall.innerText();
  found['recall search'] = (recallText.match(/XSS\d+/g) ?? []).length;
  await expect(page.getByTestId('agent-select')).toContainText('XSSNAME');

  // Documents: the library shows the hostile title; an HTML file with every payload imports as text.
  await page.goto('/#/documents');
  await expect(page.getByTestId('library')).toContainText('XSS1');
  const htmlPath = testInfo.outputPath('hostile.html');
  writeFileSync(
    htmlPath,
    `<!doctype html><html><head><title>Hostile ${PAYLOADS[0]}</title><script>__x(99)</script></head><body>${marked.map((m) => `<p>${m}</p>`).join('')}<p>${PAYLOADS.map((p) => p.replace(/</g, '&lt;')).join(' ')} ENTITYXSS</p></body></html>`,
  );
  await page.locator('input[type="file"]:not([webkitdirectory])').first().setInputFiles(htmlPath);
  await expect(page.getByTestId('library')).toContainText('hostile', {
    timeout: 60_000,
    ignoreCase: true,
  });

  const executed = await page.evaluate(() => (window as unknown as { __xss: number[] }).__xss);
  const csp = await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
  const failures =
    dialogs.length +
    executed.length +
    csp.length +
    consoleErrors.length +
    badHrefs.length +
    missing.length;
  reportReliability({
    name: 'xss-payloads',
    rule: 'X30-X32',
    trials: PAYLOADS.length * Object.keys(found).length,
    failures,
    lost: missing.length,
    details: {
      payloads: PAYLOADS.length,
      dialogs: dialogs.length,
      executed: executed.length,
      cspViolations: csp.length,
      consoleErrors: consoleErrors.length,
      unsafeLinks: badHrefs.length,
      ...Object.fromEntries(Object.entries(found).map(([k, v]) => [`shown.${k}`, v])),
    },
  });
  expect(dialogs).toEqual([]);
  expect(executed).toEqual([]);
  expect(csp).toEqual([]);
  expect(consoleErrors).toEqual([]);
  expect(badHrefs).toEqual([]);
  expect(missing).toEqual([]);
  expect(found['recall search']).toBeGreaterThan(0);
  expect(found['archival list (page 1)']).toBeGreaterThan(0);
  expect(externalRequests).toEqual([]);
});
