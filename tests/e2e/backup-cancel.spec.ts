/**
 * X196: an import that takes seconds can be cancelled from the backup card; the card says so and
 * the device keeps exactly what it had (the import's one transaction is rolled back).
 */
import { test, expect } from './fixtures';
import { exportSeededBackup, storedMessages } from './helpers/backup-template';

const MESSAGES = 60_000;

test('X196: Cancel import during a long import rolls it back and says nothing was imported', async ({
  page,
}, info) => {
  test.setTimeout(180_000);
  const { agentId, template } = await exportSeededBackup(page, info, 'Juniper');
  const backup = page.getByRole('region', { name: 'Backup' });
  // The same agent with many more messages: importing it would replace the one seed message.
  await page.evaluate(
    ({ template, count }) => {
      const value = JSON.parse(template) as { tables: { messages: Record<string, unknown>[] } };
      const seed = value.tables.messages.find((m) => m.id === 'seed-0')!;
      value.tables.messages = Array.from({ length: count }, (_, i) => ({
        ...seed,
        id: `m-${i}`,
        text: `Message ${i}: a short line of the log.`,
        at: (seed.at as number) + i,
        seq: i + 1,
      }));
      const input = document.querySelector<HTMLInputElement>('input[type="file"][accept*="json"]')!;
      const transfer = new DataTransfer();
      transfer.items.add(
        new File([JSON.stringify(value)], 'big.json', { type: 'application/json' }),
      );
      input.files = transfer.files;
      input.dispatchEvent(new Event('change', { bubbles: true }));
    },
    { template, count: MESSAGES },
  );
  await expect(backup.getByRole('button', { name: 'Cancel import' })).toHaveCount(0);
  await backup.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(backup.getByText(/^Importing messages \d+%$/)).toBeVisible({ timeout: 120_000 });
  await backup.screenshot({ path: info.outputPath('backup-importing.png') });
  await backup.getByRole('button', { name: 'Cancel import' }).click();
  await expect(backup.getByText('Import cancelled; nothing was imported.')).toBeVisible({
    timeout: 60_000,
  });
  await expect(backup.getByRole('button', { name: 'Cancel import' })).toHaveCount(0);
  const stored = await storedMessages(page, agentId);
  expect(stored).toBe(1);
  await page.screenshot({ path: info.outputPath('backup-cancelled.png'), fullPage: true });
});
