/**
 * Recall search over the live store (issue 13, R19–R20): after a turn in which the model used a
 * tool before replying, `conversation_search` for the reply's words finds the reply itself, named
 * by the agent, and no empty rows from the tool steps. E2e build: real loop, store and search in
 * Chromium, scripted model.
 */
import { test, expect } from './fixtures';
import { createAgent, loadScriptedModel, reply, script, send, step } from './helpers/loci';

test('R19/R20: after a tool-using turn, conversation_search for the reply finds it and no empty rows', async ({
  page,
  shoot,
  externalRequests,
}) => {
  await page.goto('/#/chat');
  await createAgent(page, 'Juniper');
  await page.evaluate(() =>
    (
      window as unknown as {
        __loci: { store: { setSetting(k: string, v: unknown): Promise<void> } };
      }
    ).__loci.store.setSetting('profile.displayName', 'Ada'),
  );
  await loadScriptedModel(page);

  // Turn 1: the model searches (a step with no visible text), then replies.
  await script(
    page,
    step('conversation_search', { query: 'sister' }, true, 'Check what I know.'),
    reply('She moved to Lisbon last spring, right after the wedding.'),
  );
  await send(page, 'Where does my sister live these days?');
  await expect(page.getByTestId('assistant-message').last()).toContainText('moved to Lisbon');

  // Turn 2: the model looks up the words of its own earlier reply.
  await script(
    page,
    step('conversation_search', { query: 'moved to Lisbon after the wedding' }, true, 'Look.'),
    reply('I told you she moved to Lisbon after the wedding.'),
  );
  await send(page, 'Remind me what you said about her move?');
  await expect(page.getByTestId('assistant-message').last()).toContainText('I told you');

  const steps = page.getByTestId('turn-steps').last();
  await steps.locator('summary').click();
  const search = steps.getByTestId('step').filter({ hasText: 'searched your chats' });
  const result = await search.locator('pre').innerText();
  const rows = result.split('\n').slice(1);
  // The reply itself, by the agent's name; the user's follow-up (indexed with the reply it
  // answers) by the user's. Each text is quoted data after its source (C14).
  expect(
    rows.some((r) =>
      /· assistant Juniper\] "She moved to Lisbon last spring, right after the wedding\."$/.test(r),
    ),
  ).toBe(true);
  expect(rows.some((r) => /· user Ada\] "Remind me what you said about her move\?"$/.test(r))).toBe(
    true,
  );
  // Every row has text: the search step of turn 1 (empty assistant text) is not a row.
  for (const row of rows) expect(row).toMatch(/\] "\S/);
  expect(rows.length).toBeLessThanOrEqual(3);
  await shoot(page, 'recall-search-result-1280x720');
  await page.setViewportSize({ width: 390, height: 844 });
  await shoot(page, 'recall-search-result-390x844');
  expect(externalRequests).toEqual([]);
});
