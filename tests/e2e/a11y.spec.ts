import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import {
  createAgent,
  dismissToast,
  loadScriptedModel,
  reply,
  script,
  send,
  seriousViolations,
  step,
} from './helpers/loci';

const SCREENS = ['home', 'chat', 'memory', 'documents', 'models', 'settings'] as const;
const SIZES = [
  [1280, 800],
  [390, 844],
] as const;

/** An agent with a short conversation, so every screen has real content. */
async function seed(page: Page): Promise<void> {
  await page.goto('/#/chat');
  await createAgent(page, 'Juniper');
  await loadScriptedModel(page);
  await script(
    page,
    step('core_memory_append', { label: 'human', content: 'Name: Sam. Loves hiking.' }, true),
    reply('Nice to meet you, **Sam**! Hiking sounds lovely.'),
  );
  await send(page, "Hi, I'm Sam and I love hiking.");
  await dismissToast(page);
}

test.describe('accessibility and screenshots', () => {
  for (const scheme of ['light', 'dark'] as const) {
    for (const [w, h] of SIZES) {
      test(`U42/U44: every main screen at ${w}x${h} (${scheme}) has no serious or critical axe violations`, async ({
        page,
        shoot,
        externalRequests,
      }) => {
        test.setTimeout(120_000);
        await page.emulateMedia({ colorScheme: scheme });
        await page.setViewportSize({ width: w, height: h });
        await seed(page);
        const suffix = scheme === 'dark' ? '-dark' : '';
        for (const screen of SCREENS) {
          await page.goto(`/#/${screen}`);
          await page.waitForLoadState('networkidle');
          await expect(page.locator('main h1').first()).toBeAttached();
          await dismissToast(page);
          if (screen === 'models')
            await expect(page.getByTestId('model-row').first()).toBeVisible();
          if (screen === 'chat')
            await expect(page.getByTestId('assistant-message').first()).toBeVisible();
          await shoot(page, `screen-${screen}-${w}x${h}${suffix}`);
          const violations = await seriousViolations(page);
          expect(violations, `${screen} at ${w}x${h} (${scheme})`).toEqual([]);
        }
        expect(externalRequests).toEqual([]);
      });
    }
  }

  test('U41/U43/U14: at 390x844 the chat is primary and the memory panel is a tab; targets are ≥ 44 px', async ({
    page,
    shoot,
    externalRequests,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await seed(page);
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
    await expect(page.locator('#pane-memory')).toBeHidden();
    await page.getByRole('tab', { name: 'Memory' }).click();
    await expect(page.locator('#pane-memory')).toBeVisible();
    await expect(page.locator('#pane-memory [data-block="human"]')).toContainText('Loves hiking');
    await shoot(page, 'chat-memory-tab-390x844');
    await page.getByRole('tab', { name: 'Chat' }).click();
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
    // Every visible button and link in the chat screen is at least 44 px tall (WCAG target size).
    const small = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('main button, main a, main select, nav a')]
        .filter((el) => el.offsetParent !== null)
        .map((el) => ({ text: el.textContent?.trim() ?? '', h: el.getBoundingClientRect().height }))
        .filter((r) => r.h > 0 && r.h < 44),
    );
    expect(small).toEqual([]);
    // Keyboard: Tab reaches the composer and Enter sends.
    await script(page, reply('Got it.'));
    await page.getByRole('textbox', { name: 'Message' }).focus();
    await page.keyboard.type('Thanks!');
    // U14: Shift+Enter is a new line, Enter sends.
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('See you.');
    await expect(page.getByTestId('user-message')).toHaveCount(1);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('assistant-message').last()).toContainText('Got it.');
    expect(await page.getByTestId('user-message').last().locator('p').innerText()).toBe(
      'Thanks!\nSee you.',
    );
    expect(externalRequests).toEqual([]);
  });
});

test('U155: a skip link reaches the screen, the Chat/Memory tabs follow the arrow keys, and a code block scrolls by keyboard', async ({
  page,
  externalRequests,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/#/chat');
  await createAgent(page, 'Juniper');
  await loadScriptedModel(page);
  const code = 'const longLine = "' + 'x'.repeat(300) + '";';
  await script(page, reply('Here it is:\n\n```js\n' + code + '\n```'));
  await send(page, 'Show me a long line of code.');
  await dismissToast(page);

  // The first Tab from the top of the page lands on the skip link; it moves focus to the screen.
  // Focus starts at the top of the page: blurring alone leaves Chromium's sequential focus
  // starting point at the element that had focus (the composer, or a dismissed notice's OK).
  await page.evaluate(() => {
    const body = document.body;
    body.tabIndex = -1;
    body.focus();
    body.removeAttribute('tabindex');
  });
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('main#main')).toBeFocused();
  expect(page.url()).toContain('#/chat');

  // Arrow keys move between the tabs and select; only the selected tab is in the Tab order.
  const chatTab = page.getByRole('tab', { name: 'Chat' });
  const memoryTab = page.getByRole('tab', { name: 'Memory' });
  await chatTab.focus();
  await page.keyboard.press('ArrowRight');
  await expect(memoryTab).toBeFocused();
  await expect(memoryTab).toHaveAttribute('aria-selected', 'true');
  await expect(chatTab).toHaveAttribute('tabindex', '-1');
  await page.keyboard.press('Home');
  await expect(chatTab).toHaveAttribute('aria-selected', 'true');

  // The code block is focusable and the arrow key scrolls it.
  const pre = page.getByTestId('assistant-message').last().locator('pre');
  await pre.focus();
  await expect(pre).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => pre.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
  expect(await seriousViolations(page)).toEqual([]);
  expect(externalRequests).toEqual([]);
});
