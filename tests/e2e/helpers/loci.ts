/**
 * Helpers for the chat e2e specs: build scripted model steps, load the scripted model, create an
 * agent through `window.__loci` (e2e build only), and run axe-core.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';

const require = createRequire(import.meta.url);

/** One model step as the step schema requires it. */
export function step(
  fn: string,
  args: Record<string, unknown>,
  heartbeat = false,
  thinking = '',
): string {
  return JSON.stringify({ thinking, function: fn, arguments: args, request_heartbeat: heartbeat });
}

/** A final reply step. */
export const reply = (message: string): string => step('send_message', { message });

interface LociWindow {
  __loci?: {
    llm: { pushScripted(...outputs: string[]): Promise<void> };
    configureScripted(config: Record<string, unknown>): void;
    loadModel(modelId?: string): Promise<boolean>;
    agents: {
      create(input: { name: string; kind: string; persona?: string }): Promise<{ id: string }>;
    };
  };
}

/** Waits until the e2e build has exposed its services. */
export async function waitForLoci(page: Page): Promise<void> {
  await page.waitForFunction(() => (window as unknown as LociWindow).__loci !== undefined);
}

/** Loads the scripted model as if the user had downloaded it. */
export async function loadScriptedModel(page: Page): Promise<void> {
  await waitForLoci(page);
  const ok = await page.evaluate(() => (window as unknown as LociWindow).__loci!.loadModel());
  if (!ok) throw new Error('the scripted model did not load');
}

/** Queues model steps in the scripted engine (in the LLM worker). */
export async function script(page: Page, ...outputs: string[]): Promise<void> {
  await page.evaluate(
    (o) => (window as unknown as LociWindow).__loci!.llm.pushScripted(...o),
    outputs,
  );
}

/** Creates an agent through the state (fast path for tests that are not about agents). */
export async function createAgent(page: Page, name: string, persona?: string): Promise<string> {
  await waitForLoci(page);
  return page.evaluate(
    async ({ name, persona }) =>
      (
        await (window as unknown as LociWindow).__loci!.agents.create({
          name,
          kind: 'companion',
          ...(persona ? { persona } : {}),
        })
      ).id,
    { name, persona },
  );
}

/** Runs axe-core on the page; returns the serious and critical violations. */
export async function seriousViolations(page: Page): Promise<{ id: string; nodes: string[] }[]> {
  // The app's CSP forbids inline scripts (so `addScriptTag` is blocked); evaluating the source
  // through the DevTools protocol injects axe without weakening the page's CSP.
  await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(): Promise<{
            violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
          }>;
        };
      }
    ).axe;
    const result = await axe.run();
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(' ')) }));
  });
}

/** Sets the scripted engine's config (e.g. a small window) and loads it. */
export async function loadScriptedModelWith(
  page: Page,
  config: Record<string, unknown>,
): Promise<void> {
  await waitForLoci(page);
  await page.evaluate(
    (c) => (window as unknown as LociWindow).__loci!.configureScripted(c),
    config,
  );
  await loadScriptedModel(page);
}

/**
 * Sends a message with the composer and waits until the turn has ended. A chat's first turn also
 * loads the embedding model in its worker: on a loaded machine that alone can take half a minute.
 */
export async function send(page: Page, text: string, timeout = 30_000): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
  await page
    .getByRole('button', { name: 'Send', exact: true })
    .waitFor({ state: 'visible', timeout });
}

/** The "used / window tokens" text of the context bar. */
export async function contextTotal(page: Page): Promise<string> {
  return (await page.locator('.context-bar .total').first().innerText()).trim();
}

/** Closes the "ready to work offline" toast so it does not cover screenshots. */
export async function dismissToast(page: Page): Promise<void> {
  const toast = page.getByTestId('offline-ready');
  if (!(await toast.isVisible())) return;
  // The toast fades out by itself (U171): it may go between the check and the click, which is
  // what the caller wanted anyway, so a click that finds no button is not a failure.
  await toast
    .getByRole('button', { name: 'OK' })
    .click({ timeout: 2_000 })
    .catch(() => undefined);
  await toast.waitFor({ state: 'hidden' });
}

/** Gives an agent a larger reply reserve, so a long scripted reply streams for seconds. */
export async function setReplyReserve(
  page: Page,
  agentId: string,
  replyReserve: number,
): Promise<void> {
  await page.evaluate(
    async ({ agentId, replyReserve }) => {
      const store = (
        window as unknown as {
          __loci: {
            store: {
              getAgent(id: string): Promise<{ budgets: object } | undefined>;
              apply(c: object): Promise<unknown>;
            };
          };
        }
      ).__loci.store;
      const agent = await store.getAgent(agentId);
      if (!agent) throw new Error(`no agent ${agentId}`);
      await store.apply({ agents: [{ ...agent, budgets: { ...agent.budgets, replyReserve } }] });
    },
    { agentId, replyReserve },
  );
}

/** A long reply (≈ 12 tokens a sentence) that takes seconds to stream. */
export function longText(label: string, sentences: number): string {
  return Array.from({ length: sentences }, (_, i) => `${label} ${i + 1} of a long answer.`).join(
    ' ',
  );
}

/**
 * Waits until the element with `testId` shows `text`, checking every 10 ms. It polls on a timer,
 * not on animation frames: a page that is not in front gets no frames, so a rAF poll there never
 * runs and a transient bubble (a stream lasts seconds) is missed.
 */
export async function waitForTestIdText(page: Page, testId: string, text: string): Promise<void> {
  await page.waitForFunction(
    ({ id, t }) =>
      document.querySelector(`[data-testid="${id}"]`)?.textContent?.includes(t) ?? false,
    { id: testId, t: text },
    { polling: 10, timeout: 30_000 },
  );
}

/** Waits until the streaming reply bubble shows `text`. */
export async function waitForStreaming(page: Page, text: string): Promise<void> {
  await waitForTestIdText(page, 'streaming-reply', text);
}

/** Searches recall storage by words in the memory panel and returns the results' text. */
export async function recallSearch(page: Page, words: string): Promise<string> {
  const recall = page.getByRole('region', { name: 'Recall storage' });
  await recall.getByRole('searchbox', { name: 'Search conversation' }).fill(words);
  await recall.getByRole('radio', { name: 'Words' }).check();
  await recall.getByRole('button', { name: 'Search' }).click();
  await expect(recall.getByRole('status')).toHaveText(/of \d+|No results/);
  const results = recall.getByRole('list', { name: 'Recall results' });
  return (await results.count()) > 0 ? results.innerText() : '';
}
