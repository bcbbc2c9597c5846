/**
 * The backup tests' starting point: an agent with one stored message, exported through
 * Settings → Backup → "Export everything" as a real backup file, so a test can grow that file's
 * messages in the page and import it back (X186, X196).
 */
import { readFile } from 'node:fs/promises';
import type { Page, TestInfo } from '@playwright/test';
import { createAgent } from './loci';

type StoreWindow = {
  __loci: {
    store: {
      apply(c: object): Promise<unknown>;
      db: { messages: { where(k: string): { equals(v: string): { count(): Promise<number> } } } };
    };
  };
};

/** Creates agent `name` with the message `seed-0`, reloads, and exports everything. */
export async function exportSeededBackup(
  page: Page,
  info: TestInfo,
  name: string,
): Promise<{ agentId: string; template: string }> {
  await page.goto('/#/settings');
  const agentId = await createAgent(page, name);
  await page.evaluate(async (agentId) => {
    await (window as unknown as StoreWindow).__loci.store.apply({
      messages: [
        {
          id: 'seed-0',
          agentId,
          role: 'user',
          text: 'The seed message.',
          at: Date.now() - 60_000,
          inContext: false,
          tokens: 5,
        },
      ],
    });
  }, agentId);
  await page.reload();
  const backup = page.getByRole('region', { name: 'Backup' });
  const download = page.waitForEvent('download');
  await backup.getByRole('button', { name: 'Export everything' }).click();
  const path = info.outputPath('template.json');
  await (await download).saveAs(path);
  return { agentId, template: await readFile(path, 'utf8') };
}

/** How many messages agent `agentId` has in IndexedDB. */
export function storedMessages(page: Page, agentId: string): Promise<number> {
  return page.evaluate(
    (agentId) =>
      (window as unknown as StoreWindow).__loci.store.db.messages
        .where('agentId')
        .equals(agentId)
        .count(),
    agentId,
  );
}
