import { test, expect } from './fixtures';
import { createAgent, loadScriptedModel, reply, script, step, waitForLoci } from './helpers/loci';

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
    await createAgent(page, 'Juniper');
    await loadScriptedModel(page);
    const long = Array.from({ length: 30 }, (_, i) => `Sentence ${i + 1} of a long answer about birthdays.`).join(' ');
    await script(
      page,
      step('core_memory_append', { label: 'human', content: 'Birthday: 12 May.' }, true, 'Save the birthday.'),
      reply(long),
    );
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('My birthday is on 12 May.');
    await box.press('Enter');
    const streaming = page.getByTestId('streaming-reply');
    await expect(streaming).toContainText('Sentence 1 of a long answer');
    await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();
    await shoot(page, 'chat-streaming-1280x800');
    await expect(page.getByTestId('assistant-message').last()).toContainText('Sentence 30');
    await expect(streaming).toHaveCount(0);
    const steps = page.getByTestId('turn-steps').last();
    await expect(steps).toContainText('updated core memory: human');
    await expect(page.getByTestId('user-message').last()).toContainText('12 May');
    expect(externalRequests).toEqual([]);
  });
});
