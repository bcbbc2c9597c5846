/**
 * Helpers for the chat e2e specs: build scripted model steps, load the scripted model, create an
 * agent through `window.__loci` (e2e build only), and run axe-core.
 */
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

const require = createRequire(import.meta.url);

/** One model step as the step schema requires it. */
export function step(fn: string, args: Record<string, unknown>, heartbeat = false, thinking = ''): string {
  return JSON.stringify({ thinking, function: fn, arguments: args, request_heartbeat: heartbeat });
}

/** A final reply step. */
export const reply = (message: string): string => step('send_message', { message });

interface LociWindow {
  __loci?: {
    llm: { pushScripted(...outputs: string[]): Promise<void> };
    loadModel(modelId?: string): Promise<boolean>;
    agents: { create(input: { name: string; kind: string; persona?: string }): Promise<{ id: string }> };
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
  await page.evaluate((o) => (window as unknown as LociWindow).__loci!.llm.pushScripted(...o), outputs);
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
  await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run();
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(' ')) }));
  });
}
