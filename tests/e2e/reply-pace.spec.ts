/**
 * Issue 36 item 4 (A44): "Replies on this device" — Fast replies by default, Thorough memory by
 * choice, kept in this browser across a reload; axe-clean at both sizes.
 */
import { test, expect } from './fixtures';
import { seriousViolations } from './helpers/loci';

test('A44: Settings offers fast replies by default and keeps "Thorough memory" once chosen', async ({
  page,
  shoot,
}) => {
  await page.goto('/#/settings');
  const pace = page.getByRole('group', { name: 'Replies on this device' });
  await expect(pace.getByRole('radio', { name: /^Fast replies/ })).toBeChecked();
  await expect(pace).toContainText('recalls fewer memories');
  await pace.getByRole('radio', { name: /^Thorough memory/ }).check();
  await page.reload();
  await expect(
    page.getByRole('group', { name: 'Replies on this device' }).getByRole('radio', {
      name: /^Thorough memory/,
    }),
  ).toBeChecked();
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    const group = page.getByRole('group', { name: 'Replies on this device' });
    await group.scrollIntoViewIfNeeded();
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, `settings-reply-pace-${width}x${height}`);
  }
});
