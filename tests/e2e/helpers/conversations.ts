/** Two conversations of one agent, for the reliability specs that run across them (X183). */
import { expect, type Page } from '@playwright/test';

/**
 * Names the agent's first conversation "Chat A" and adds "Chat B" (through the store, so no
 * first-message auto title renames them), and returns both.
 */
export async function twoConversations(
  page: Page,
  agentId: string,
): Promise<{ id: string; title: string }[]> {
  await expect(page.getByTestId('conversation-row')).toHaveCount(1, { timeout: 15_000 });
  const made = await page.evaluate(async (agentId) => {
    const store = (
      window as unknown as {
        __loci: {
          store: {
            listConversations(a: string): Promise<{ id: string; createdAt: number }[]>;
            apply(c: object): Promise<unknown>;
          };
        };
      }
    ).__loci.store;
    const [first] = await store.listConversations(agentId);
    const now = Date.now();
    const rows = [
      { id: first!.id, agentId, title: 'Chat A', createdAt: first!.createdAt, updatedAt: now },
      { id: `${agentId}:chat-b`, agentId, title: 'Chat B', createdAt: now, updatedAt: now },
    ];
    await store.apply({ conversations: rows });
    return rows.map(({ id, title }) => ({ id, title }));
  }, agentId);
  await expect(page.getByTestId('conversation-row')).toHaveCount(2, { timeout: 15_000 });
  return made;
}

/** Shows the conversation titled `title` (a click in the list) and waits until it is current. */
export async function openConversation(page: Page, title: string): Promise<void> {
  const button = page
    .getByTestId('conversation-row')
    .getByRole('button', { name: new RegExp(`^${title}`) });
  await button.click();
  await expect(button).toHaveAttribute('aria-current', 'true');
}
