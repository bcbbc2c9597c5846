/**
 * P34 (ADR 0196): every screen but Home loads its code on demand. Where that code cannot be
 * fetched, the screen says so in its place and "Try again" loads it.
 */
import { test, expect } from './fixtures';

// The service worker would answer from its precache, past the route that fails the file here.
test.use({ serviceWorkers: 'block' });

test('P34: a screen whose code cannot be fetched shows an alert, and Try again opens it', async ({
  page,
  externalRequests,
  shoot,
}) => {
  let fail = true;
  await page.route(/\/assets\/SettingsScreen-[^/]*\.js$/, (route) =>
    fail ? route.abort('internetdisconnected') : route.fallback(),
  );
  await page.goto('/#/settings');
  const alert = page.getByTestId('screen-load-error');
  await expect(alert).toBeVisible();
  await expect(alert).toHaveAttribute('role', 'alert');
  await expect(alert).toContainText('This screen could not be loaded.');
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toHaveCount(0);
  await shoot(page, 'screen-load-error-1280x720');

  fail = false;
  await alert.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await expect(alert).toHaveCount(0);
  // The other screens load when opened.
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const name of ['Models', 'Memory', 'Documents', 'Chat'] as const) {
    await nav.getByRole('link', { name }).click();
    await expect(page).toHaveURL(new RegExp(`#/${name.toLowerCase()}`));
    await expect(page.getByRole('heading', { name, level: 1 })).toBeAttached();
  }
  expect(externalRequests).toEqual([]);
});
