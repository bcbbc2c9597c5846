/**
 * Shared pieces of the reliability e2e specs (X…): the full/CI trial counts, the seeded PRNG, the
 * count records `scripts/reliability-summary.mjs` prints, and the store invariants checked after
 * a crash (read in the page through the e2e build's `window.__loci`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';

/** `LOCI_RELIABILITY_FULL=1` runs the counts; otherwise the CI counts. */
export const FULL = process.env.LOCI_RELIABILITY_FULL === '1';

/** mulberry32, the same generator as `src/testing/seeded-random.ts`. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface ReliabilityRecord {
  name: string;
  rule: string;
  trials: number;
  failures: number;
  lost: number;
  details?: Record<string, number | string>;
}

/** Writes `test-artifacts/reliability/<name>.json` and prints one line. */
export function reportReliability(record: ReliabilityRecord): void {
  mkdirSync('test-artifacts/reliability', { recursive: true });
  writeFileSync(
    `test-artifacts/reliability/${record.name}.json`,
    JSON.stringify({ ...record, full: FULL, at: new Date().toISOString() }, null, 2),
  );
  console.log(
    `[reliability] ${record.name} (${record.rule}): trials=${record.trials} failures=${record.failures} lost=${record.lost}`,
  );
}

/** What the store looks like to the invariants (see {@link readInvariants}). */
export interface StoreInvariants {
  /** Copies of each user message text. */
  userCopies: Record<string, number>;
  /** Copies of each user message text, per conversation id. */
  userCopiesIn: Record<string, Record<string, number>>;
  running: number;
  interrupted: string[];
  /** Block versions and passages written by tools (shows the tool path was exercised). */
  toolEdits: number;
  summaries: number;
  /** Step records by tool name (`invalid` for failed steps). */
  stepTools: Record<string, number>;
  /** Status of the newest turn (by start time), if any. */
  newestStatus: string | null;
  /** Human-readable breaches: edits without step records, inconsistent summary/queue … */
  problems: string[];
}

/**
 * Reads the agent's records in the page and checks the crash invariants (X1–X4): no memory edit
 * or assistant message without its step record, step numbers contiguous, and per conversation
 * (each has its own queue and summary chain, X183) summary versions contiguous and every evicted
 * message covered by the conversation's newest summary.
 */
export async function readInvariants(page: Page, agentId: string): Promise<StoreInvariants> {
  await page.waitForFunction(() => '__loci' in window);
  return page.evaluate(async (agentId) => {
    type Rec = Record<string, unknown>;
    const store = (
      window as unknown as {
        __loci: { store: Record<string, (...a: unknown[]) => Promise<Rec[]>> };
      }
    ).__loci.store;
    const messages = await store.queryMessages!(agentId);
    const turns = await store.listTurns!(agentId);
    const blocks = await store.listBlocks!(agentId);
    const summaries = await store.listSummaries!(agentId);
    const passages = await store.queryPassages!(agentId);
    const problems: string[] = [];
    const stepsOf = new Map<string, Rec[]>();
    for (const turn of turns) stepsOf.set(String(turn.id), await store.listSteps!(turn.id));
    const hasStep = (turnId: unknown, step?: unknown) =>
      (stepsOf.get(String(turnId)) ?? []).some((s) => step === undefined || s.step === step);
    let toolEdits = 0;
    const stepTools: Record<string, number> = {};
    for (const steps of stepsOf.values())
      for (const s of steps) {
        const key = s.ok ? String(s.tool) : 'invalid';
        stepTools[key] = (stepTools[key] ?? 0) + 1;
      }
    const userCopies: Record<string, number> = {};
    const userCopiesIn: Record<string, Record<string, number>> = {};
    for (const m of messages)
      if (m.role === 'user') {
        userCopies[String(m.text)] = (userCopies[String(m.text)] ?? 0) + 1;
        const copies = (userCopiesIn[String(m.conversationId)] ??= {});
        copies[String(m.text)] = (copies[String(m.text)] ?? 0) + 1;
      }
    for (const m of messages)
      if ((m.role === 'assistant' || m.role === 'tool') && m.turnId && !hasStep(m.turnId))
        problems.push(`message ${String(m.id)} of turn ${String(m.turnId)} has no step record`);
    for (const b of blocks) {
      const history = await store.blockHistory!(agentId, b.label);
      for (const v of history) {
        const source = v.source as Rec;
        if (source.type === 'tool') toolEdits += 1;
        if (source.type === 'tool' && !hasStep(source.turnId, source.step))
          problems.push(`block ${String(b.label)} v${String(v.version)} has no step record`);
      }
    }
    for (const p of passages) {
      const source = p.source as Rec;
      if (source.type === 'memory') toolEdits += 1;
      if (source.type === 'memory' && !hasStep(source.turnId))
        problems.push(`passage ${String(p.id)} has no step record`);
    }
    for (const turn of turns) {
      const steps = (stepsOf.get(String(turn.id)) ?? [])
        .map((s) => Number(s.step))
        .sort((a, b) => a - b);
      if (steps.some((s, i) => s !== i + 1))
        problems.push(`turn ${String(turn.id)} steps ${steps.join(',')}`);
      if (turn.status === 'done' && turn.steps !== steps.length && steps.length > 0)
        problems.push(
          `turn ${String(turn.id)} says ${String(turn.steps)} steps, has ${steps.length}`,
        );
    }
    const chains = new Map<string, Rec[]>();
    for (const summary of summaries) {
      const key = String(summary.conversationId);
      chains.set(key, [...(chains.get(key) ?? []), summary]);
    }
    const coveredTo = new Map<string, number>();
    for (const [conversation, chain] of chains) {
      const versions = chain.map((s) => Number(s.version)).sort((a, b) => a - b);
      if (versions.some((v, i) => v !== i + 1))
        problems.push(`summary versions ${versions.join(',')} in ${conversation}`);
      coveredTo.set(conversation, Math.max(...chain.map((s) => Number(s.toSeq))));
    }
    for (const m of messages) {
      const toSeq = coveredTo.get(String(m.conversationId)) ?? 0;
      if (m.inContext === false && Number(m.seq) > toSeq)
        problems.push(
          `message #${String(m.seq)} left the queue of ${String(m.conversationId)} but no summary covers it (to #${toSeq})`,
        );
    }
    return {
      userCopies,
      userCopiesIn,
      toolEdits,
      summaries: summaries.length,
      stepTools,
      running: turns.filter((t) => t.status === 'running').length,
      interrupted: turns.filter((t) => t.status === 'interrupted').map((t) => String(t.id)),
      newestStatus:
        turns.length === 0
          ? null
          : String(
              turns.reduce((a, t) => (Number(t.startedAt) > Number(a.startedAt) ? t : a)).status,
            ),
      problems,
    };
  }, agentId);
}

/** Crashes the page's renderer (CDP `Page.crash`) or closes it without unload handlers. */
export async function killPage(page: Page, how: 'crash' | 'close'): Promise<void> {
  if (how === 'close') {
    await page.close({ runBeforeUnload: false });
    return;
  }
  const cdp = await page.context().newCDPSession(page);
  const crashed = page.waitForEvent('crash', { timeout: 10_000 }).catch(() => undefined);
  // Page.crash never answers: the renderer is gone before it could.
  cdp.send('Page.crash').catch(() => undefined);
  await crashed;
  await page.close().catch(() => undefined);
}
