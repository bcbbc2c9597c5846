/**
 * Issue 19, "Done means": a v1 database made by the v1 code path opens in v2 with every message
 * (S22, X182). In the page, a database is opened through the schema v1 declaration and the store
 * (`__loci.openV1Store`), filled with two agents, their core blocks, messages (2,000 in CI,
 * 100,000 with LOCI_RELIABILITY_FULL=1, or LOCI_MIGRATION_MESSAGES), a summary and a passage, and
 * closed; then the app is loaded over it (`?e2e-db=`), which upgrades it to v2. Every message is
 * read back (same seq, same text, in "First conversation"), the chat shows the newest ones, and
 * recall search finds an old one. The upgrade time (`loci:store-open`, measured by main.ts) goes
 * into the reliability report. While it runs, the app shows a full-screen status with the count
 * of messages rewritten (U215), gone once the store is open.
 */
import { test, expect } from './fixtures';
import { createAgent, dismissToast, waitForLoci } from './helpers/loci';
import { FULL, reportReliability } from './helpers/reliability';

const TOTAL = Number(process.env.LOCI_MIGRATION_MESSAGES ?? (FULL ? 100_000 : 2_000));
const PER_AGENT = Math.floor(TOTAL / 2);
/** The newest messages of each agent stay in the queue; older ones are summarized. */
const QUEUE = 20;
const BATCH = 1_000;
const DB = `loci-v1-${Date.now()}`;
const SHOTS = process.env.LOCI_UPGRADE_SHOTS;

type Row = Record<string, unknown> & { id: string; seq: number; text: string };
type Store = {
  apply(c: object): Promise<unknown>;
  close(): void;
  listAgents(): Promise<Row[]>;
  listBlocks(agentId: string): Promise<Row[]>;
  blockHistory(agentId: string, label: string): Promise<Row[]>;
  queryMessages(agentId: string, q?: object): Promise<Row[]>;
  countMessages(agentId: string): Promise<number>;
  listConversations(agentId: string): Promise<Row[]>;
  listSummaries(agentId: string): Promise<Row[]>;
  setSetting(key: string, value: unknown): Promise<void>;
  getSetting(key: string): Promise<unknown>;
  lastSeq(agentId: string): Promise<number>;
};
type Loci = {
  store: Store & { db: { verno: number } };
  openV1Store(name: string): Promise<Store & { db: { verno: number } }>;
};

/** The text of message `i` (1-based) of `agent`; message 7 holds the phrase recall must find. */
function textOf(agent: string, i: number): string {
  const extra = i === 7 ? ' The lighthouse keeper Oskar paints his boat teal.' : '';
  return `Message ${i} of ${agent}: ${i.toString(36)} harbour lamp rope.${extra}`;
}

test('X182: a v1 database made by the v1 code path opens in v2 with every message', async ({
  page,
}) => {
  test.setTimeout(120_000 + TOTAL * 6);
  await page.setViewportSize({ width: 1280, height: 800 });
  // Two agents as the app makes them (rows of the shape v1 stored), in the default database.
  await page.goto('/#/settings');
  await waitForLoci(page);
  const ids = [await createAgent(page, 'Juniper'), await createAgent(page, 'Rowan')];

  // A database at schema v1, filled through the v1 declaration and the store.
  const seeded = await page.evaluate(
    async ({ db, ids, perAgent, queue, batch }) => {
      const loci = (window as unknown as { __loci: Loci }).__loci;
      // The same text as textOf (CSP forbids eval in the page, so it is written out again).
      const textOf = (agent: string, i: number) =>
        `Message ${i} of ${agent}: ${i.toString(36)} harbour lamp rope.` +
        (i === 7 ? ' The lighthouse keeper Oskar paints his boat teal.' : '');
      const v1 = await loci.openV1Store(db);
      const verno = v1.db.verno;
      const agents = (await loci.store.listAgents()).filter((a) => ids.includes(a.id));
      for (const agent of agents) {
        const blocks = await loci.store.listBlocks(agent.id);
        const writes = [];
        for (const block of blocks) {
          const history = await loci.store.blockHistory(agent.id, String(block.label));
          writes.push({ block, history: history[history.length - 1] });
        }
        await v1.apply({ agents: [agent], blocks: writes });
      }
      const base = 1_700_000_000_000;
      for (const agentId of ids)
        for (let from = 1; from <= perAgent; from += batch) {
          const messages = [];
          for (let i = from; i < Math.min(perAgent + 1, from + batch); i += 1)
            messages.push({
              id: `${agentId}-m${i}`,
              agentId,
              // The chat renders the model's replies from its steps; plain rows are the user's.
              role: 'user',
              text: textOf(agentId, i),
              at: base + i * 1_000,
              inContext: i > perAgent - queue,
              tokens: 12,
            });
          await v1.apply({ messages });
        }
      for (const agentId of ids)
        await v1.apply({
          summaries: [
            {
              id: `${agentId}-s1`,
              agentId,
              version: 1,
              text: `Earlier, ${perAgent - queue} messages about the harbour.`,
              fromSeq: 1,
              toSeq: perAgent - queue,
              method: 'model',
              at: base + (perAgent - queue) * 1_000,
              tokens: 10,
            },
          ],
          passages: [
            {
              id: `${agentId}-p1`,
              agentId,
              text: 'Oskar keeps the lighthouse.',
              source: { type: 'user' },
              tags: [],
              at: base,
              embedding: null,
              embeddingModel: null,
              dimension: 0,
            },
          ],
        });
      await v1.setSetting('ui.activeAgent', ids[0]);
      // The seqs the v1 store gave, per message id.
      const seqs: Record<string, number> = {};
      for (const agentId of ids)
        for (const m of await v1.queryMessages(agentId)) seqs[m.id] = m.seq;
      v1.close();
      return {
        verno,
        seqs: Object.keys(seqs).length,
        inOrder: ids.every((a) =>
          [...Array(perAgent).keys()].every((k) => seqs[`${a}-m${k + 1}`] === k + 1),
        ),
      };
    },
    { db: DB, ids, perAgent: PER_AGENT, queue: QUEUE, batch: BATCH },
  );
  expect(seeded).toEqual({ verno: 1, seqs: PER_AGENT * 2, inOrder: true });

  // The app over that database: it opens at v2 and upgrades, showing its progress (U215). Whether
  // the status appeared, and the last count it showed, are recorded from the first paint on.
  await page.addInitScript(() => {
    const seen = { shown: false, text: '' };
    (window as unknown as { __upgradeSeen: typeof seen }).__upgradeSeen = seen;
    new MutationObserver(() => {
      const cover = document.querySelector('[data-testid="store-upgrade"]');
      if (cover) Object.assign(seen, { shown: true, text: cover.textContent ?? '' });
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await page.goto(`/?e2e-db=${DB}#/chat`);
  if (SHOTS) {
    // Screenshots of the status while it runs (LOCI_UPGRADE_SHOTS=<folder>, at a size that lasts).
    const cover = page.getByTestId('store-upgrade');
    await expect(cover).toContainText(/[1-9][\d,]* of [\d,]+ messages/, { timeout: 30_000 });
    await page.screenshot({ path: `${SHOTS}/upgrade-desktop.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(cover).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/upgrade-mobile.png` });
    await page.setViewportSize({ width: 1280, height: 800 });
  }
  await waitForLoci(page);
  await page.waitForFunction(
    () => performance.getEntriesByName('loci:store-open').length > 0,
    null,
    {
      timeout: 60_000 + TOTAL * 2,
    },
  );
  const upgradeMs = await page.evaluate(
    () => performance.getEntriesByName('loci:store-open')[0]!.duration,
  );
  // The status was shown with the message count, and is gone once the store is open.
  const upgradeSeen = await page.evaluate(
    () => (window as unknown as { __upgradeSeen: { shown: boolean; text: string } }).__upgradeSeen,
  );
  expect(upgradeSeen.shown).toBe(true);
  expect(upgradeSeen.text).toContain('Updating your library to the new format');
  expect(upgradeSeen.text).toContain(`of ${(PER_AGENT * 2).toLocaleString('en-US')} messages`);
  expect(upgradeSeen.text).toContain('Keep this tab open.');
  await expect(page.getByTestId('store-upgrade')).toHaveCount(0);
  const check = await page.evaluate(
    async ({ ids, perAgent }) => {
      const loci = (window as unknown as { __loci: Loci }).__loci;
      // The same text as textOf (CSP forbids eval in the page, so it is written out again).
      const textOf = (agent: string, i: number) =>
        `Message ${i} of ${agent}: ${i.toString(36)} harbour lamp rope.` +
        (i === 7 ? ' The lighthouse keeper Oskar paints his boat teal.' : '');
      const version = loci.store.db.verno;
      let equal = 0;
      const problems: string[] = [];
      const conversations: string[] = [];
      for (const agentId of ids) {
        const list = await loci.store.listConversations(agentId);
        conversations.push(...list.map((c) => String(c.title)));
        const first = list[0]?.id;
        for (let offset = 0; offset < perAgent; offset += 2_000) {
          const rows = await loci.store.queryMessages(agentId, { offset, limit: 2_000 });
          for (const row of rows) {
            const i = Number(row.id.slice(row.id.lastIndexOf('-m') + 2));
            if (row.seq === i && row.text === textOf(agentId, i) && row.conversationId === first)
              equal += 1;
            else if (problems.length < 5) problems.push(`${row.id} seq ${row.seq}`);
          }
        }
      }
      const queue = await loci.store.queryMessages(ids[0]!, {
        conversationId: `${ids[0]}:conversation-1`,
        inContext: true,
      });
      return {
        version,
        equal,
        problems,
        conversations,
        queue: queue.length,
        summaries: (await loci.store.listSummaries(ids[0]!)).map((s) => s.conversationId),
      };
    },
    { ids, perAgent: PER_AGENT },
  );
  const lost = PER_AGENT * 2 - check.equal;
  reportReliability({
    name: 'conversations-migration',
    rule: 'X182',
    trials: 1,
    failures: lost > 0 || check.version !== 2 ? 1 : 0,
    lost,
    details: { messages: PER_AGENT * 2, agents: 2, 'upgrade ms': Math.round(upgradeMs) },
  });
  console.log(
    `[migration] ${PER_AGENT * 2} messages upgraded v1 → v2 in ${Math.round(upgradeMs)} ms`,
  );
  expect(check).toEqual({
    version: 2,
    equal: PER_AGENT * 2,
    problems: [],
    conversations: ['First conversation', 'First conversation'],
    queue: QUEUE,
    summaries: [`${ids[0]}:conversation-1`],
  });

  // The chat shows the newest messages of the first conversation.
  await dismissToast(page);
  await expect(page.getByTestId('conversation-row')).toHaveCount(1);
  await expect(page.getByTestId('conversation-row')).toContainText('First conversation');
  const shown = page.getByTestId('user-message');
  await expect(shown.last()).toContainText(textOf(ids[0]!, PER_AGENT), { timeout: 30_000 });
  await expect(shown.nth(-2)).toContainText(textOf(ids[0]!, PER_AGENT - 1));
  await expect(page.getByText(textOf(ids[0]!, 1), { exact: true })).toHaveCount(0);

  // Recall search finds an old message (long out of the queue).
  const recall = page.locator('#pane-memory').getByRole('region', { name: 'Recall storage' });
  await recall
    .getByRole('searchbox', { name: 'Search conversation' })
    .fill('lighthouse keeper Oskar teal');
  await recall.getByRole('radio', { name: 'Words' }).check();
  await recall.getByRole('button', { name: 'Search' }).click();
  await expect(recall.getByRole('list', { name: 'Recall results' })).toContainText(
    `Message 7 of ${ids[0]}`,
    { timeout: 30_000 + TOTAL },
  );
});
