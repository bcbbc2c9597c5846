/**
 * X5–X7, X183: two tabs on one agent — tab 1 in conversation "Chat A", tab 2 in "Chat B" — press
 * Enter at the same moment, round after round. Only one turn runs at a time (the lock is per
 * agent: turns never overlap in the store), the other tab says "Running in another tab" and
 * keeps its draft, and once the agent is free it sends: every message is stored exactly once, in
 * its own tab's conversation.
 */
import { test, expect } from './fixtures';
import { createAgent, loadScriptedModel, longText, reply, script } from './helpers/loci';
import { openConversation, twoConversations } from './helpers/conversations';
import { FULL, readInvariants, reportReliability } from './helpers/reliability';

const ROUNDS = FULL ? 20 : 4;

test('X5 X6 X7: both tabs send at once; one turn at a time, the other keeps its draft, nothing lost or doubled', async ({
  page,
  context,
  externalRequests,
}) => {
  test.setTimeout(60_000 + ROUNDS * 30_000);
  await page.goto('/#/chat');
  const agentId = await createAgent(page, 'Shared');
  await loadScriptedModel(page);
  const other = await context.newPage();
  await other.goto('/#/chat');
  await loadScriptedModel(other);
  await expect(other.getByTestId('agent-select').locator('option:checked')).toHaveText('Shared');
  const tabs = [page, other];
  const conversations = await twoConversations(page, agentId);
  for (const [t, tab] of tabs.entries()) {
    await expect(tab.getByTestId('conversation-row')).toHaveCount(2, { timeout: 15_000 });
    await openConversation(tab, conversations[t]!.title);
  }
  const texts: string[] = [];
  const failures: string[] = [];
  let kept = 0;
  let busyShown = 0;

  for (let round = 0; round < ROUNDS; round += 1) {
    const mine = tabs.map((_, t) => `Round ${round} from tab ${t + 1}.`);
    texts.push(...mine);
    for (const tab of tabs) await script(tab, reply(longText(`Answer ${round}`, 30)));
    for (const [t, tab] of tabs.entries()) {
      const box = tab.getByRole('textbox', { name: 'Message' });
      await expect(box).toBeEnabled({ timeout: 30_000 });
      await box.fill(mine[t] as string);
    }
    // Enter in both tabs in the same event-loop turn of the test runner.
    await Promise.all(
      tabs.map((tab) => tab.getByRole('textbox', { name: 'Message' }).press('Enter')),
    );
    // Whichever tab lost the race keeps its draft, says why, and sends once the agent is free.
    for (const [t, tab] of tabs.entries()) {
      const box = tab.getByRole('textbox', { name: 'Message' });
      await expect
        .poll(async () => {
          const copies = (await readInvariants(tab, agentId)).userCopies[mine[t] as string] ?? 0;
          return copies > 0 || (await box.inputValue()) === mine[t];
        })
        .toBe(true);
      if ((await box.inputValue()) === mine[t]) {
        kept += 1;
        const busy = tab.getByTestId('busy-elsewhere');
        if ((await busy.count()) > 0) {
          busyShown += 1;
          await expect(busy).toContainText('Running in another tab.');
        }
        await expect(box).toBeEnabled({ timeout: 30_000 });
        await box.press('Enter');
        await expect
          .poll(async () => (await readInvariants(tab, agentId)).userCopies[mine[t] as string] ?? 0)
          .toBe(1);
      }
    }
    // Each tab shows its own conversation's message, and not the other's.
    for (const [t, tab] of tabs.entries())
      for (const [u, text] of mine.entries())
        await expect(tab.getByTestId('user-message').filter({ hasText: text })).toHaveCount(
          t === u ? 1 : 0,
          { timeout: 30_000 },
        );
  }
  for (const tab of tabs)
    await expect(tab.getByRole('textbox', { name: 'Message' })).toBeEnabled({ timeout: 30_000 });

  const inv = await readInvariants(page, agentId);
  let lost = 0;
  for (const [i, text] of texts.entries()) {
    // Tab 1's messages (even indexes) belong to Chat A, tab 2's to Chat B.
    const conversation = conversations[i % 2]!.id;
    const copies = inv.userCopiesIn[conversation]?.[text] ?? 0;
    const elsewhere = (inv.userCopies[text] ?? 0) - copies;
    if (copies !== 1 || elsewhere !== 0) {
      lost += Math.abs(1 - copies) + elsewhere;
      failures.push(`"${text}" stored ${copies} times in ${conversation}, ${elsewhere} elsewhere`);
    }
  }
  const turns = await page.evaluate(
    async (agentId) =>
      (
        await (
          window as unknown as {
            __loci: {
              store: { listTurns(a: string): Promise<{ startedAt: number; endedAt?: number }[]> };
            };
          }
        ).__loci.store.listTurns(agentId)
      ).map((t) => [t.startedAt, t.endedAt ?? Infinity] as const),
    agentId,
  );
  const sorted = [...turns].sort((a, b) => a[0] - b[0]);
  let overlaps = 0;
  for (let i = 1; i < sorted.length; i += 1)
    if ((sorted[i]?.[0] ?? 0) < (sorted[i - 1]?.[1] ?? 0)) overlaps += 1;
  if (overlaps > 0) failures.push(`${overlaps} overlapping turns`);
  failures.push(...inv.problems);
  reportReliability({
    name: 'two-tabs',
    rule: 'X5-X7',
    trials: ROUNDS,
    failures: failures.length,
    lost,
    details: { messages: texts.length, turns: turns.length, keptDraft: kept, busyShown, overlaps },
  });
  expect(failures).toEqual([]);
  expect(turns).toHaveLength(texts.length);
  await other.close();
  expect(externalRequests).toEqual([]);
});
