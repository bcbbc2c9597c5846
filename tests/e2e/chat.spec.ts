import { test, expect } from './fixtures';
import {
  contextTotal,
  dismissToast,
  createAgent,
  loadScriptedModel,
  loadScriptedModelWith,
  longText,
  reply,
  script,
  send,
  seriousViolations,
  setReplyReserve,
  step,
  waitForStreaming,
} from './helpers/loci';

test.describe('chat', () => {
  test('U3: with no model loaded the chat says to go to Models instead of failing', async ({
    page,
    externalRequests,
  }) => {
    await page.goto('/#/chat');
    await createAgent(page, 'Juniper');
    await expect(page.getByTestId('no-model')).toContainText('No chat model is loaded');
    await expect(page.getByTestId('no-model').getByRole('link', { name: 'Models' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeDisabled();
    expect(externalRequests).toEqual([]);
  });

  test('U1/U4: a reply streams before the turn ends, with its steps inline and collapsible', async ({
    page,
    shoot,
    externalRequests,
  }) => {
    await page.goto('/#/chat');
    const agentId = await createAgent(page, 'Juniper');
    await setReplyReserve(page, agentId, 1500);
    await loadScriptedModel(page);
    const long = longText('Sentence', 100);
    await script(
      page,
      step(
        'core_memory_append',
        { label: 'human', content: 'Birthday: 12 May.' },
        true,
        'Save the birthday.',
      ),
      reply(long),
    );
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('My birthday is on 12 May.');
    await box.press('Enter');
    const streaming = page.getByTestId('streaming-reply');
    await waitForStreaming(page, 'Sentence 1 of a long answer');
    // Still streaming: the end of the reply is not there yet, and the turn can be stopped.
    expect(await streaming.innerText()).not.toContain('Sentence 100');
    await expect(page.getByRole('button', { name: 'Stop', exact: true })).toBeVisible();
    await shoot(page, 'chat-streaming-1280x800');
    await expect(page.getByTestId('assistant-message').last()).toContainText('Sentence 100', {
      timeout: 30_000,
    });
    await expect(streaming).toHaveCount(0);
    const steps = page.getByTestId('turn-steps').last();
    await expect(steps).toContainText('updated core memory: human');
    await expect(page.getByTestId('user-message').last()).toContainText('12 May');
    expect(externalRequests).toEqual([]);
  });
});

test.describe('a scripted conversation, watched tier by tier', () => {
  test('U2/U9/U209: context bar per turn, live core edit and revert, recall paged in with its words marked, eviction and summary', async ({
    page,
    shoot,
    externalRequests,
  }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/#/chat');
    await createAgent(page, 'Juniper');
    // A 2k window so a handful of long messages fills it and the queue manager evicts.
    await loadScriptedModelWith(page, { contextWindow: 2048 });
    const panel = page.locator('#pane-memory');
    await expect(panel.getByText('No context yet')).toBeVisible();

    // Turn 1: the model saves a fact to core memory; the block changes live and lights up.
    await script(
      page,
      step('core_memory_append', { label: 'human', content: 'Name: Sam. Loves hiking.' }, true),
      reply('Nice to meet you, Sam!'),
    );
    await send(page, "Hi, I'm Sam and I love hiking.");
    const human = panel.locator('[data-block="human"]');
    await expect(human).toContainText('Loves hiking');
    await expect(human).toHaveClass(/lit/);
    await expect(page.getByTestId('turn-steps').last()).toContainText('updated core memory: human');
    const total1 = await contextTotal(page);
    expect(total1).toMatch(/^[\d,]+ \/ 2,048 tokens/);
    await shoot(page, 'chat-core-edit-1280x800');

    // The user reverts the model's edit from the block's history.
    await human.getByRole('button', { name: /History \(v2\)/ }).click();
    await human.getByRole('button', { name: 'Revert block human to version 1' }).click();
    await expect(human.locator('.value')).toHaveText('(empty)');
    await expect(human.getByRole('button', { name: /History \(v3\)/ })).toBeVisible();

    // Turn 2: an archival insert; the context bar changes with the turn.
    await script(
      page,
      step('archival_memory_insert', { content: "Sam's sister Mia lives in Lisbon." }, true),
      reply('I will remember that Mia lives in Lisbon.'),
    );
    await send(page, 'Please remember: my sister Mia lives in Lisbon.');
    await expect(page.getByTestId('turn-steps').last()).toContainText('saved to archival memory');
    await expect.poll(() => contextTotal(page)).not.toBe(total1);
    const total2 = await contextTotal(page);

    // Turn 3: automatic recall pages the archival passage into the prompt, highlighted.
    await script(page, reply('Mia lives in Lisbon.'));
    await send(page, 'Where does Mia live?');
    const paged = panel.locator('[data-memory]').filter({ hasText: 'Lisbon' });
    await expect(paged.first()).toBeVisible();
    await expect(paged.first()).toHaveClass(/lit/);
    // U180: a card a person reads — its source in words and its text, no id or prompt brackets;
    // "Show the exact prompt text" brings back the line the model read.
    await expect(paged.first()).toContainText('Saved note');
    await expect(paged.first()).toContainText("Sam's sister Mia lives in Lisbon.");
    await expect(paged.first()).not.toContainText('[p:');
    // U209: the words recall searched for ("Where does Mia live?") are marked, as text, and
    // nothing else: "where" and "does" are stop words, "lives" is "live".
    await expect(paged.first().locator('mark')).toHaveText(['Mia', 'lives']);
    await expect(paged.first().locator('mark *')).toHaveCount(0);
    await paged.first().scrollIntoViewIfNeeded();
    await shoot(page, 'memory-cards-1280x800');
    // On a phone the cards sit in the Memory tab, marks and all.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('tab', { name: 'Memory' }).click();
    await expect(paged.first().locator('mark')).toHaveText(['Mia', 'lives']);
    await paged.first().scrollIntoViewIfNeeded();
    await shoot(page, 'memory-cards-390x844');
    expect(await seriousViolations(page), 'memory cards at 390x844').toEqual([]);
    await page.getByRole('tab', { name: 'Chat' }).click();
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(panel.getByLabel('Show the exact prompt text')).not.toBeChecked();
    await panel.getByLabel('Show the exact prompt text').check();
    await expect(paged.first()).toContainText('[p:');
    await expect(paged.first()).toContainText(' tok');
    await panel.getByLabel('Show the exact prompt text').uncheck();
    await expect.poll(() => contextTotal(page)).not.toBe(total2);
    await shoot(page, 'chat-recall-paged-in-1280x800');

    // Long messages fill the 2k window until the queue manager evicts and writes a summary.
    const filler = (n: number) =>
      `Day ${n}: ` +
      Array.from({ length: 24 }, (_, i) => `we walked trail ${n}-${i} and saw pines`).join(', ') +
      '.';
    const summary = panel.locator('.summary .text');
    for (let n = 1; n <= 12 && !(await summary.isVisible()); n += 1) {
      await send(page, filler(n));
    }
    await expect(summary).toContainText('Summary: Sam introduced themself');
    // The first message left the queue for recall storage but is still in the chat history.
    const queue = panel.locator('.queue');
    await expect(queue).not.toContainText("Hi, I'm Sam");
    await expect(page.getByTestId('user-message').first()).toContainText("Hi, I'm Sam");
    await expect(panel.locator('.summary .range')).toContainText('Covers messages #1');
    await shoot(page, 'chat-after-eviction-1280x800');
    expect(externalRequests).toEqual([]);
  });
});

test.describe('agents', () => {
  test('U10–U12: an agent is created, renamed, given a persona and deleted through the UI', async ({
    page,
    externalRequests,
  }) => {
    await page.goto('/#/chat');
    // First open: no agents yet, so the chat offers to create one.
    await expect(page.getByRole('heading', { name: 'Welcome to Loci' })).toBeVisible();
    await page.getByLabel('Name', { exact: true }).fill('Juniper');
    await page.getByRole('button', { name: 'Create agent' }).click();
    await expect(page.getByTestId('agent-select')).toHaveValue(/.+/);
    await expect(page.getByTestId('agent-select').locator('option:checked')).toHaveText('Juniper');

    // A second agent, a notebook, from the Agents dialog.
    await page.getByTestId('manage-agents').click();
    const dialog = page.getByRole('dialog', { name: 'Agents' });
    await dialog.getByLabel('Name', { exact: true }).fill('Research notes');
    await dialog.getByRole('radio', { name: /Notebook/ }).check();
    await dialog.getByRole('button', { name: 'Create agent' }).click();
    await expect(page.getByTestId('agent-select').locator('option:checked')).toHaveText(
      'Research notes',
    );

    // Rename it and change its persona; both persist (the persona is a user edit of the block).
    await page.getByTestId('manage-agents').click();
    await dialog.getByRole('button', { name: 'Edit Research notes' }).click();
    const editing = dialog
      .getByTestId('agent-row')
      .filter({ has: page.getByRole('button', { name: 'Save' }) });
    await editing.getByLabel('Name', { exact: true }).fill('Lab notebook');
    await editing.getByLabel(/^Persona/).fill('I answer from the lab notes, citing passages.');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByTestId('agent-row').filter({ hasText: 'Lab notebook' })).toContainText(
      'citing passages',
    );
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.reload();
    await expect(page.getByTestId('agent-select').locator('option:checked')).toHaveText(
      'Lab notebook',
    );
    await expect(page.locator('#pane-memory [data-block="persona"]')).toContainText(
      'citing passages',
    );

    // Delete with confirmation; the other agent becomes active.
    await page.getByTestId('manage-agents').click();
    await dialog.getByRole('button', { name: 'Delete Lab notebook' }).click();
    await expect(dialog.getByRole('alertdialog')).toContainText('cannot be undone');
    await dialog.getByRole('button', { name: 'Delete for good' }).click();
    await expect(dialog.getByTestId('agent-row')).toHaveCount(1);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(page.getByTestId('agent-select').locator('option')).toHaveText(['Juniper']);
    expect(externalRequests).toEqual([]);
  });
});

test.describe('untrusted model output', () => {
  test('U21–U23: Markdown with script, onerror and javascript: payloads renders as text and runs nothing', async ({
    page,
    externalRequests,
  }) => {
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto('/#/chat');
    await createAgent(page, 'Juniper');
    await loadScriptedModel(page);
    const payload = [
      '**Bold** text and a [safe link](https://example.org).',
      '<script>window.__pwned = 1; alert("script")</script>',
      '<img src=x onerror="window.__pwned = 2; alert(\'img\')">',
      '[click me](javascript:window.__pwned=3) ![tracker](https://example.org/t.png)',
      '<a href="javascript:alert(1)">raw link</a> <iframe src="https://example.org"></iframe>',
    ].join('\n\n');
    await script(page, reply(payload));
    await send(page, 'Show me some formatting.');
    const bubble = page.getByTestId('assistant-message').last();
    await expect(bubble.locator('strong')).toHaveText('Bold');
    await expect(bubble).toContainText('<script>window.__pwned = 1; alert("script")</script>');
    await expect(bubble).toContainText('<img src=x onerror=');
    await expect(bubble).toContainText('[image: tracker]');
    await expect(bubble.locator('script, img, iframe, [onerror]')).toHaveCount(0);
    await expect(bubble.locator('a')).toHaveCount(1);
    await expect(bubble.locator('a')).toHaveAttribute('href', 'https://example.org');
    await bubble.getByText('click me').click();
    expect(
      await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned),
    ).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(externalRequests).toEqual([]);
  });
});

test.describe('interrupt and retry', () => {
  test('U5/U7: stopping a reply marks the turn stopped with Retry, and Retry answers it', async ({
    page,
    externalRequests,
  }) => {
    await page.goto('/#/chat');
    const agentId = await createAgent(page, 'Juniper');
    await setReplyReserve(page, agentId, 1500);
    await loadScriptedModel(page);
    await script(page, reply(longText('Part', 100)));
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Tell me a long story.');
    await box.press('Enter');
    await waitForStreaming(page, 'Part 1');
    // dispatchEvent: the click must land while the reply streams, without waiting for layout to settle.
    await page.getByRole('button', { name: 'Stop', exact: true }).dispatchEvent('click');
    const ending = page.getByTestId('turn-ending').last();
    await expect(ending).toContainText('Stopped');
    await script(page, reply('Here is a shorter story.'));
    await ending.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByTestId('assistant-message').last()).toContainText('a shorter story');
    // The stopped turn stays labelled in the history, but only the newest turn offers Retry.
    await expect(page.getByTestId('turn-ending')).toHaveCount(1);
    await expect(
      page.getByTestId('turn-ending').getByRole('button', { name: 'Retry' }),
    ).toHaveCount(0);
    // The user's message was stored once; the retry reran its turn.
    await expect(page.getByTestId('user-message')).toHaveCount(1);
    expect(externalRequests).toEqual([]);
  });
});

test.describe('long history', () => {
  test('U15: a long chat opens on its newest messages; "show earlier" loads older ones in place', async ({
    page,
    externalRequests,
  }) => {
    await page.goto('/#/chat');
    const agentId = await createAgent(page, 'Juniper');
    // 250 stored messages, as after months of chat (older ones long out of the context window).
    await page.evaluate(async (agentId) => {
      const store = (
        window as unknown as {
          __loci: { store: { apply(changes: Record<string, unknown>): Promise<unknown> } };
        }
      ).__loci.store;
      const day = 86_400_000;
      await store.apply({
        messages: Array.from({ length: 250 }, (_, i) => ({
          id: `old-${i + 1}`,
          agentId,
          role: i % 2 ? 'assistant' : 'user',
          text: `Old message ${i + 1}.`,
          // A reply is the assistant's send_message call, as the agent loop stores it.
          ...(i % 2
            ? {
                toolCall: { name: 'send_message', arguments: { message: `Old message ${i + 1}.` } },
              }
            : {}),
          at: Date.now() - (250 - i) * day,
          inContext: i >= 240,
          tokens: 6,
        })),
      });
    }, agentId);
    const bubbles = page.locator('[data-testid="user-message"], [data-testid="assistant-message"]');
    await expect(bubbles).toHaveCount(200);
    await expect(bubbles.last()).toContainText('Old message 250.');
    await expect(bubbles.first()).toContainText('Old message 51.');

    const older = page.getByTestId('show-older');
    await expect(older).toHaveText('Show 50 earlier messages');
    await older.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-artifacts/screenshots/chat-show-older-1280x720.png' });
    await page.setViewportSize({ width: 390, height: 844 });
    await older.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-artifacts/screenshots/chat-show-older-390x844.png' });
    await older.click();
    await expect(bubbles).toHaveCount(250);
    await expect(bubbles.first()).toContainText('Old message 1.');
    await expect(older).toHaveCount(0);
    // What the user was reading stays in view: the older messages went in above it.
    await expect(page.getByText('Old message 51.', { exact: true })).toBeInViewport();
    await expect(page.getByText('Old message 1.', { exact: true })).not.toBeInViewport();
    expect(externalRequests).toEqual([]);
  });
});

test.describe('two tabs', () => {
  test('U40: while one tab runs the agent, another says so and updates live', async ({
    page,
    context,
    externalRequests,
  }) => {
    await page.goto('/#/chat');
    const agentId = await createAgent(page, 'Juniper');
    await setReplyReserve(page, agentId, 1500);
    await loadScriptedModel(page);
    const other = await context.newPage();
    await other.goto('/#/chat');
    await loadScriptedModel(other);
    await expect(other.getByTestId('agent-select').locator('option:checked')).toHaveText('Juniper');
    // The tab that runs the turn is the one the user is looking at.
    await page.bringToFront();

    await script(page, reply(longText('Line', 100)));
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Write me something long.');
    await box.press('Enter');
    await waitForStreaming(page, 'Line 1');
    // The second tab sees the user's message and that the agent is busy elsewhere.
    await expect(other.getByTestId('user-message')).toContainText('Write me something long.');
    await expect(other.getByTestId('busy-elsewhere')).toContainText('Running in another tab');
    await expect(other.getByRole('textbox', { name: 'Message' })).toBeDisabled();
    // When the first tab finishes, the reply appears in the second and it can write again.
    await expect(other.getByTestId('assistant-message').last()).toContainText('Line 100', {
      timeout: 30_000,
    });
    await expect(other.getByTestId('busy-elsewhere')).toHaveCount(0);
    await expect(other.getByRole('textbox', { name: 'Message' })).toBeEnabled();
    await other.close();
    expect(externalRequests).toEqual([]);
  });
});

test.describe('crash safety', () => {
  test('U7: a turn cut off by a reload shows as interrupted with Retry, and Retry finishes it', async ({
    page,
    externalRequests,
  }) => {
    await page.goto('/#/chat');
    const agentId = await createAgent(page, 'Juniper');
    await setReplyReserve(page, agentId, 1500);
    await loadScriptedModel(page);
    await script(page, reply(longText('Chunk', 100)));
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Tell me everything.');
    await box.press('Enter');
    await waitForStreaming(page, 'Chunk 1');
    await page.reload();
    // The user's message survived; the cut-off turn is marked interrupted on open.
    await expect(page.getByTestId('user-message')).toContainText('Tell me everything.');
    const ending = page.getByTestId('turn-ending');
    await expect(ending).toContainText('Interrupted');
    await loadScriptedModel(page);
    await script(page, reply('Here is the short version.'));
    await ending.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByTestId('assistant-message').last()).toContainText('the short version');
    await expect(page.getByTestId('user-message')).toHaveCount(1);
    expect(externalRequests).toEqual([]);
  });
});

test('U325: a code block in a reply has its own Copy, which takes only the code', async ({
  page,
  context,
  shoot,
  externalRequests,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/#/chat');
  await createAgent(page, 'Juniper');
  await loadScriptedModel(page);
  await script(page, reply('Run this:\n\n```sh\nnpm ci\nnpm test\n```\n\nThen open the app.'));
  await send(page, 'How do I test it?');
  const bubble = page.getByTestId('assistant-message').last();
  await expect(bubble).toContainText('Then open the app.');
  const copy = bubble.getByRole('button', { name: 'Copy code' });
  await copy.click();
  await expect(bubble.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('npm ci\nnpm test\n');
  await dismissToast(page);
  await shoot(page, 'chat-code-copy-1280x800');
  // The whole reply's Copy takes what the reader sees, without the button's words.
  await bubble.getByRole('button', { name: 'Copy message from Juniper' }).click();
  const whole = await page.evaluate(() => navigator.clipboard.readText());
  expect(whole).toContain('npm test');
  expect(whole).not.toContain('Copy code');
  expect(await seriousViolations(page)).toEqual([]);
  expect(externalRequests).toEqual([]);
});

test('U163: Copy puts what the reader sees on the clipboard, for a reply and for a message of mine', async ({
  page,
  context,
  externalRequests,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/#/chat');
  await createAgent(page, 'Juniper');
  await loadScriptedModel(page);
  await script(page, reply('Here is **bold** advice: drink water.'));
  await send(page, 'Any advice?');
  const bubble = page.getByTestId('assistant-message').last();
  await expect(bubble).toContainText('drink water');
  await bubble.getByRole('button', { name: 'Copy message from Juniper' }).click();
  await expect(bubble.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    'Here is bold advice: drink water.',
  );
  await page
    .getByTestId('user-message')
    .last()
    .getByRole('button', { name: 'Copy message from you' })
    .click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('Any advice?');
  expect(externalRequests).toEqual([]);
});
