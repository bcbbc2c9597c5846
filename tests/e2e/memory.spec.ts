/**
 * The live memory view (issue 6, item 2) in the built e2e app: core-block edit and revert from
 * history, recall search in each mode, archival insert and delete, the context bar after a
 * scripted turn, and screenshots at desktop and phone sizes.
 */
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import {
  createAgent,
  loadScriptedModel,
  reply,
  script,
  seriousViolations,
  step,
} from './helpers/loci';

interface SeedWindow {
  __loci: {
    store: {
      apply(changes: unknown): Promise<{ messages: unknown[] }>;
    };
    search: {
      indexMessages(messages: unknown[]): Promise<void>;
      loadAgent(id: string): Promise<void>;
    };
  };
}

const DAY = 86_400_000;

/** Closes the "ready to work offline" toast so it does not cover the screenshots. */
async function dismissToast(page: Page): Promise<void> {
  const ok = page.getByRole('button', { name: 'OK', exact: true });
  if (await ok.isVisible()) await ok.click();
}

/** Writes a small conversation (older messages out of context) and indexes it for search. */
async function seedConversation(page: Page, agentId: string): Promise<void> {
  await page.evaluate(
    async ({ agentId, DAY }) => {
      const loci = (window as unknown as SeedWindow).__loci;
      const base = new Date(2026, 2, 1, 12).getTime();
      const lines: [string, string][] = [
        ['user', 'My sister Maya has her birthday on the 12th of May.'],
        ['assistant', 'Noted: Maya’s birthday is on 12 May.'],
        ['user', 'I adopted a cat called Pixel last spring.'],
        ['assistant', 'Pixel is a lovely name for a cat.'],
        ['user', 'Remind me to buy a present for the birthday.'],
        ['assistant', 'I will remind you about the present.'],
      ];
      // The live store's shape: a reply is a send_message step (only those are indexed, R19).
      const messages = lines.map(([role, text], i) => ({
        id: `seed-${i}`,
        agentId,
        role,
        text,
        ...(role === 'assistant'
          ? { toolCall: { name: 'send_message', arguments: { message: text } } }
          : {}),
        at: base + i * DAY,
        inContext: i >= 2,
        tokens: 12,
      }));
      const applied = await loci.store.apply({ messages });
      await loci.search.loadAgent(agentId);
      await loci.search.indexMessages(applied.messages);
    },
    { agentId, DAY },
  );
}

test.describe('memory view', () => {
  test('U52/U53: a core block is edited inline and reverted from its history with a diff', async ({
    page,
    externalRequests,
  }) => {
    await page.goto('/#/memory');
    await createAgent(page, 'Juniper');
    const human = page.locator('article[data-block="human"]');
    await expect(human).toBeVisible();
    const before = (await human.locator('.value').innerText()).trim();

    await human.getByRole('button', { name: 'Edit block human' }).click();
    const box = human.getByRole('textbox', { name: 'Edit block human' });
    await box.fill('Name: Ada. Likes green tea.');
    await human.getByRole('button', { name: 'Save' }).click();
    await expect(human.locator('.value')).toHaveText('Name: Ada. Likes green tea.');
    await expect(human.getByRole('status')).toContainText('Saved as version 2');
    await expect(human).toHaveClass(/lit/);

    await human.getByRole('button', { name: /History/ }).click();
    const history = human.getByRole('list', { name: 'History of block human' });
    await expect(history.locator('li').first()).toContainText('by you');
    await expect(history.locator('ins').first()).toContainText('Name: Ada. Likes green tea.');
    await history.getByRole('button', { name: 'Revert block human to version 1' }).click();
    await expect(human.locator('.value')).toHaveText(before === '(empty)' ? '(empty)' : before);
    await expect(history.locator('li').first()).toContainText('reverting to version 1');
    await expect(human.getByText(/History \(v3\)|Reverted to version 1/).first()).toBeVisible();

    // Over the limit: the counter turns red and Save is refused.
    await human.getByRole('button', { name: 'Edit block human' }).click();
    await human.getByRole('textbox', { name: 'Edit block human' }).fill('x'.repeat(20_000));
    await expect(human.getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(externalRequests).toEqual([]);
  });

  test('U55/U59: writes from outside this view appear live and are highlighted', async ({
    page,
  }) => {
    await page.goto('/#/memory');
    const agentId = await createAgent(page, 'Juniper');
    await seedConversation(page, agentId);
    const human = page.locator('article[data-block="human"]');
    await expect(human).toBeVisible();
    const queue = page.getByRole('region', { name: 'Message queue' });
    await expect(queue).toContainText('4 in context');

    // As the loop (or another tab) would write them: a block edit, an eviction, two summaries.
    await page.evaluate(async (agentId) => {
      const store = (window as unknown as SeedWindow).__loci.store as unknown as {
        getBlock(a: string, l: string): Promise<{ version: number } & Record<string, unknown>>;
        apply(changes: unknown): Promise<unknown>;
      };
      const block = await store.getBlock(agentId, 'human');
      const version = block.version + 1;
      const value = 'Sister: Maya (birthday 12 May).';
      const source = { type: 'tool', turnId: 't1', step: 1, tool: 'core_memory_append' };
      const summary = (version: number, text: string, toSeq: number) => ({
        id: `sum-${version}`,
        agentId,
        version,
        text,
        fromSeq: 1,
        toSeq,
        method: 'extractive',
        at: Date.now(),
        tokens: 20,
      });
      await store.apply({
        blocks: [
          {
            block: { ...block, value, version, updatedAt: Date.now() },
            history: { agentId, label: 'human', version, value, source, at: Date.now() },
          },
        ],
        inContext: { ids: ['seed-2', 'seed-3'], inContext: false },
        summaries: [
          summary(1, 'The user has a sister, Maya.', 2),
          summary(2, 'The user has a sister, Maya, and a cat, Pixel.', 4),
        ],
      });
    }, agentId);

    await expect(human.locator('.value')).toHaveText('Sister: Maya (birthday 12 May).');
    await expect(human).toHaveClass(/lit/);
    await expect(queue).toContainText('2 in context');
    await expect(queue).toHaveClass(/lit/);
    const summary = page.getByRole('region', { name: 'Recursive summary' });
    await expect(summary).toHaveClass(/lit/);
    await expect(summary).toContainText('and a cat, Pixel.');
    await expect(summary).toContainText('Covers messages #1–#4.');
    await summary.getByText('Versions (2)').click();
    await expect(summary.locator('ins').first()).toContainText('and a cat, Pixel');
    // The highlight goes out by itself.
    await expect(human).not.toHaveClass(/lit/, { timeout: 6000 });
    await human.getByRole('button', { name: /History/ }).click();
    await expect(human.getByRole('list', { name: 'History of block human' })).toContainText(
      'by the model (core_memory_append, step 1)',
    );
  });

  test('U62: with the forgetting strategy the containers show R and F, and forget now moves an item', async ({
    page,
  }) => {
    await page.goto('/#/memory');
    const agentId = await createAgent(page, 'Juniper');
    await page.evaluate(async (agentId) => {
      const store = (window as unknown as SeedWindow).__loci.store as unknown as {
        getAgent(id: string): Promise<Record<string, unknown>>;
        apply(changes: unknown): Promise<unknown>;
        setSetting(key: string, value: unknown): Promise<void>;
      };
      const agent = await store.getAgent(agentId);
      await store.apply({ agents: [{ ...agent, strategy: 'forgetting' }] });
      const item = (id: string, text: string, relevance: number, forget: number) => ({
        id,
        lines: [{ role: 'user', text }],
        fromSeq: 1,
        toSeq: 2,
        at: Date.now(),
        relevance,
        forget,
        pinned: false,
      });
      await store.setSetting(`strategy:forgetting:${agentId}`, {
        version: 1,
        lastSeq: 4,
        rounds: 2,
        roundId: null,
        items: {
          a: item('a', 'I like green tea.', 0.73, 0.42),
          b: item('b', 'My cat is Pixel.', 0.5, 1.6),
        },
        shortTerm: ['a'],
        longTerm: ['b'],
        forget: [],
        lastMoves: { added: [], forgotten: [], recalled: [] },
      });
    }, agentId);
    const box = page.getByRole('region', { name: 'Forgetting curve' });
    await expect(box).toContainText('Short-term (1)');
    await expect(box).toContainText('R 0.73');
    await expect(box).toContainText('F 0.42');
    await expect(box.getByRole('button', { name: 'Forget now' })).toHaveCount(1);
    // A round (here: another tab) stores a new short-term item just before the click, while the
    // screen still shows the older state. The operation must apply to what is stored (F16).
    await page.evaluate(async (key) => {
      const store = (window as unknown as SeedWindow).__loci.store as unknown as {
        getSetting(k: string): Promise<Record<string, unknown>>;
        setSetting(k: string, value: unknown): Promise<void>;
      };
      const state = (await store.getSetting(key)) as {
        items: Record<string, Record<string, unknown>>;
        shortTerm: string[];
      };
      const c = {
        ...state.items.a,
        id: 'c',
        lines: [{ role: 'user', text: 'I live by the sea.' }],
      };
      await store.setSetting(key, {
        ...state,
        items: { ...state.items, c },
        shortTerm: [...state.shortTerm, 'c'],
      });
      const button = [...document.querySelectorAll('button')].find(
        (b) => b.textContent?.trim() === 'Forget now',
      );
      button!.click();
    }, `strategy:forgetting:${agentId}`);
    await expect(box).toContainText('Short-term (1)');
    await expect(box).toContainText('Long-term (2)');
    await expect(box).toContainText('I live by the sea.');
    const stored = await page.evaluate(
      (key) =>
        (
          (window as unknown as SeedWindow).__loci.store as unknown as {
            getSetting(k: string): Promise<{ longTerm: string[]; shortTerm: string[] }>;
          }
        ).getSetting(key),
      `strategy:forgetting:${agentId}`,
    );
    expect(stored.longTerm).toEqual(['b', 'a']);
    expect(stored.shortTerm).toEqual(['c']);
  });

  test('U56/U209/U210: recall search by words, meaning and both, with a date filter and totals', async ({
    page,
    shoot,
  }) => {
    await page.goto('/#/memory');
    const agentId = await createAgent(page, 'Juniper');
    await seedConversation(page, agentId);
    const recall = page.getByRole('region', { name: 'Recall storage' });
    await recall.getByRole('searchbox', { name: 'Search conversation' }).fill('birthday');

    await recall.getByRole('radio', { name: 'Words' }).check();
    await recall.getByRole('button', { name: 'Search' }).click();
    // Conversation search ranks the turns that say "birthday" first; a reply is also found
    // through the turn it answers, and neighbouring turns follow (ADR 0071), so there are more.
    await expect(recall.getByRole('status')).toHaveText(/1–[3-5] of [3-5]/);
    const results = recall.getByRole('list', { name: 'Recall results' });
    await expect(results).toContainText('Maya has her birthday');
    // U181: who said it as the chat says it ("You", the agent's name), never a role name;
    // no raw scores or sequence numbers in the results.
    await expect(
      results.locator('li').filter({ hasText: 'Maya has her birthday' }).locator('.role'),
    ).toHaveText('You');
    await expect(
      results.locator('li').filter({ hasText: 'Noted: Maya' }).locator('.role'),
    ).toHaveText('Juniper');
    await expect(results).not.toContainText(/\b(user|assistant)\b/);
    await expect(results).not.toContainText('score');
    await expect(results).not.toContainText(/#\d+ ·/);
    const top3 = (await results.locator('li').allInnerTexts()).slice(0, 3);
    expect(top3.filter((t) => t.includes('birthday')).length).toBeGreaterThanOrEqual(2);
    // U209/U210: the matched word is in a <mark>, as text; scores and ids only behind Details.
    await expect(results.locator('mark').first()).toHaveText(/^birthdays?$/i);
    expect(await results.locator('mark').count()).toBeGreaterThanOrEqual(2);
    for (const word of await results.locator('mark').allInnerTexts())
      expect(word.toLowerCase()).toMatch(/^birthdays?$/);
    await expect(recall.getByRole('checkbox', { name: 'Details' })).not.toBeChecked();
    await recall.getByRole('checkbox', { name: 'Details' }).check();
    await expect(results.locator('li').first()).toContainText(/score \d\.\d{3} · id /);
    await page.setViewportSize({ width: 1280, height: 800 });
    await results.scrollIntoViewIfNeeded();
    await shoot(page, 'hilite-recall-details-1280x800');
    await recall.getByRole('checkbox', { name: 'Details' }).uncheck();
    await expect(results).not.toContainText('score');
    await shoot(page, 'hilite-recall-1280x800');
    await page.setViewportSize({ width: 390, height: 844 });
    await results.scrollIntoViewIfNeeded();
    await shoot(page, 'hilite-recall-390x844');
    await page.setViewportSize({ width: 1280, height: 800 });

    await recall.getByRole('radio', { name: 'Meaning' }).check();
    await recall.getByRole('button', { name: 'Search' }).click();
    await expect(recall.getByRole('status')).toHaveText(/of \d+|No results/);

    await recall.getByRole('radio', { name: 'Both' }).check();
    await recall.getByRole('button', { name: 'Search' }).click();
    await expect(recall.getByRole('list', { name: 'Recall results' })).toContainText('birthday');

    // Date filter: only the first day (the message about Maya).
    await recall.getByRole('radio', { name: 'Words' }).check();
    await recall.getByLabel('From').fill('2026-03-01');
    await recall.getByLabel('To').fill('2026-03-01');
    await recall.getByRole('button', { name: 'Search' }).click();
    await expect(recall.getByRole('status')).toHaveText(/1–1 of 1/);

    // Dates only: search by date.
    await recall.getByRole('searchbox', { name: 'Search conversation' }).fill('');
    await recall.getByLabel('To').fill('2026-03-02');
    await recall.getByRole('button', { name: 'Search' }).click();
    await expect(recall.getByRole('status')).toHaveText(/1–2 of 2/);
  });

  test('U57/U58/U209/U210: archival passages are inserted, found, deleted, and the tier counts follow', async ({
    page,
    shoot,
  }) => {
    await page.goto('/#/memory');
    await createAgent(page, 'Juniper');
    const archival = page.getByRole('region', { name: 'Archival storage' });
    await archival.getByText('Add a passage').click();
    await archival
      .getByRole('textbox', { name: 'Passage text' })
      .fill('The spare key is under the blue flowerpot.');
    await archival.getByRole('textbox', { name: /Tags/ }).fill('home, keys');
    await archival.getByRole('button', { name: 'Save passage' }).click();
    const list = archival.getByRole('list', { name: 'Archival passages' });
    await expect(list).toContainText('blue flowerpot');
    await expect(list.locator('li').first()).toContainText('Added: by you');
    // One passage is "1 passage", not "1 passages" (issue 37 item 7).
    await expect(archival.getByText('1 passage', { exact: true })).toBeVisible();
    const tiers = page.getByRole('region', { name: "This agent's tiers" });
    await expect(tiers.locator('tr[data-tier="passages"] td').first()).toHaveText('1');

    await archival.getByRole('searchbox', { name: 'Search archival memory' }).fill('flowerpot');
    await archival.getByRole('combobox', { name: 'Match by' }).selectOption('lexical');
    await archival.getByRole('button', { name: 'Search' }).click();
    await expect(archival.getByText(/1–1 of 1 for “flowerpot”/)).toBeVisible();
    // U209/U210: the word is marked; no score or id is shown until "Details" is ticked.
    await expect(list.locator('mark')).toHaveText(['flowerpot']);
    await expect(list).not.toContainText('score');
    const details = archival.getByRole('checkbox', { name: 'Details' });
    await expect(details).not.toBeChecked();
    await expect(list).not.toContainText(/\bid /);
    await shoot(page, 'hilite-archival-1280x800');
    await details.check();
    await expect(list.locator('li').first()).toContainText(/score \d\.\d{3} · id \S+/);
    await shoot(page, 'hilite-archival-details-1280x800');
    await page.setViewportSize({ width: 390, height: 844 });
    await list.scrollIntoViewIfNeeded();
    await shoot(page, 'hilite-archival-details-390x844');
    expect(await seriousViolations(page), 'archival details at 390x844').toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    await shoot(page, 'hilite-archival-details-390x844-dark');
    expect(await seriousViolations(page), 'archival details at 390x844, dark').toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 800 });
    await details.uncheck();
    await expect(list).not.toContainText('score');

    await list.getByRole('button', { name: /Delete passage/ }).click();
    await expect(list).toContainText('No passages match.');
    await archival.getByRole('button', { name: 'Show all' }).click();
    await expect(list).toContainText('Archival memory is empty.');
    await expect(tiers.locator('tr[data-tier="passages"] td').first()).toHaveText('0');

    // U161: "Undo" puts the passage back whole, and search finds it again.
    await archival.getByRole('button', { name: 'Undo' }).click();
    await expect(archival.getByRole('status').first()).toContainText('Passage restored.');
    await expect(list).toContainText('blue flowerpot');
    await expect(list.locator('li').first()).toContainText('home');
    await expect(tiers.locator('tr[data-tier="passages"] td').first()).toHaveText('1');
    await archival.getByRole('searchbox', { name: 'Search archival memory' }).fill('flowerpot');
    await archival.getByRole('button', { name: 'Search' }).click();
    await expect(archival.getByText(/1–1 of 1 for “flowerpot”/)).toBeVisible();
    // U209/U210: the word is marked; no score is shown.
    await expect(list.locator('mark')).toHaveText(['flowerpot']);
    await expect(list).not.toContainText('score');
    await shoot(page, 'hilite-archival-1280x800');
  });

  test('U50/U54/U59: after a scripted turn the context bar shows the plan and the queue marks what leaves next', async ({
    page,
    shoot,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/#/chat');
    const agentId = await createAgent(page, 'Juniper');
    await seedConversation(page, agentId);
    // A low eviction target, so the plan has an evictable prefix to mark in the queue.
    await page.evaluate(async (id) => {
      const store = (window as unknown as SeedWindow).__loci.store as unknown as {
        getAgent(id: string): Promise<{ budgets: Record<string, number> }>;
        apply(changes: unknown): Promise<unknown>;
      };
      const agent = await store.getAgent(id);
      await store.apply({
        agents: [{ ...agent, budgets: { ...agent.budgets, targetFraction: 0.12 } }],
      });
    }, agentId);
    await loadScriptedModel(page);
    await script(
      page,
      step('conversation_search', { query: 'birthday' }, true),
      reply('Happy to help with the present.'),
    );
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('What should I buy for the birthday?');
    await box.press('Enter');
    await expect(page.getByTestId('assistant-message').last()).toContainText('Happy to help');

    await page.goto('/#/memory');
    const bar = page.getByRole('region', { name: 'Context window' });
    await expect(bar.getByRole('img')).toHaveAttribute(
      'aria-label',
      /Context window \d[\d,]* of [\d,]+ tokens used/,
    );
    await expect(bar.getByRole('list', { name: 'Thresholds' })).toContainText('Reminder to save');
    const messagesTokens = Number(
      (await bar.locator('[data-part="messages"]').innerText()).replace(/,/g, ''),
    );
    expect(messagesTokens).toBeGreaterThan(0);
    const queue = page.getByRole('region', { name: 'Message queue' });
    await expect(queue).toContainText('in context');
    await expect(queue).toContainText('What should I buy for the birthday?');
    await expect(queue.locator('.next-out')).toContainText(
      /\d+ oldest messages? \(\d+ tokens\) leave at the next flush/,
    );
    await expect(queue.locator('li.out').first()).toContainText('evicted next');
    // U323: the search step reads in words; what it returned is folded; no function names.
    await expect(queue).toContainText('Searched your chats for "birthday"');
    await expect(queue.locator('details.result summary').first()).toContainText(
      /Found \d+ results?/,
    );
    await expect(queue).not.toContainText('conversation_search');
    await expect(bar.locator('.total')).toContainText('MemGPT tiers');
    // The newest user message is never evictable (C3).
    await expect(
      queue.locator('li.role-user').filter({ hasText: 'What should I buy' }),
    ).not.toHaveClass(/out/);

    await dismissToast(page);

    await shoot(page, 'memory-1280x800');
    // Contrast is measured on settled colours: no transition or highlight flash mid-way.
    await page.emulateMedia({ colorScheme: 'dark', reducedMotion: 'reduce' });
    await page.waitForTimeout(300);
    await shoot(page, 'memory-1280x800-dark');
    expect(await seriousViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 390, height: 844 });
    await dismissToast(page);
    await shoot(page, 'memory-390x844');
    // Nothing sticks out sideways on a phone.
    expect(
      await page.locator('main').evaluate((el) => el.scrollWidth - el.clientWidth),
    ).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('C18: the context bar says what the next request reads new and keeps from the last step', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/#/chat');
    await createAgent(page, 'Rowan');
    await loadScriptedModel(page);
    const box = page.getByRole('textbox', { name: 'Message' });
    await script(page, reply('Hello there.'));
    await box.fill('Hi, I am Sam.');
    await box.press('Enter');
    await expect(page.getByTestId('assistant-message').last()).toContainText('Hello there.');
    await script(page, reply('Nice to meet you, Sam.'));
    await box.fill('Do you remember my name?');
    await box.press('Enter');
    await expect(page.getByTestId('assistant-message').last()).toContainText('Nice to meet you');

    await page.goto('/#/memory');
    const line = page.getByRole('region', { name: 'Context window' }).getByTestId('context-reuse');
    await expect(line).toContainText(
      /^This step read [\d,]+ new tokens? and reused [\d,]+ from the step before\.$/,
    );
    const [fresh, kept] = ((await line.innerText()).match(/[\d,]+/g) ?? []).map((n) =>
      Number(n.replace(/,/g, '')),
    );
    // The second turn's request is the first plus its reply and one new message: the engine
    // keeps the whole first request and reads only the new message and the reply header.
    expect(kept).toBeGreaterThan(0);
    expect(fresh).toBeGreaterThan(0);
    expect(fresh).toBeLessThan(kept ?? 0);
  });
});
