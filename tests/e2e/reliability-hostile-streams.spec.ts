/**
 * Issue 34 (X210–X212, E80–E85, U290–U291): no model server can freeze the tab or redirect the
 * prompt away. A hostile OpenAI-compatible server on 127.0.0.1 (tests/servers/hostile-server.mjs)
 * answers each chat turn in one hostile way; for every kind the page must keep its main thread
 * free (no long task), Stop must bring the chat back to idle, a failed turn must leave nothing
 * half-saved, and the user must read what happened in plain words.
 *
 * CI size: each kind once, the "huge" replies 5 MB. Full size (LOCI_RELIABILITY_FULL=1): each
 * kind three times, the "huge" replies 50 MB. Either way the client stops a reply at its cap
 * (65,536 characters or 4 MiB of stream for this agent's reserve, ADR 0187), so a larger reply
 * only means the server tries to send more.
 */
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { createAgent } from './helpers/loci';
import { FULL, reportReliability } from './helpers/reliability';
import { startTaskTrace, stopTaskTrace } from './helpers/main-thread-cpu';
import { startHostileServer } from '../servers/hostile-server.mjs';
import { observeLongTasks } from './helpers/long-tasks';

interface HostileServer {
  url: string;
  elsewhereUrl: string;
  control(changes: Record<string, unknown>): void;
  stats(): { completions: number; elsewhere: number; cancelled: number };
  close(): Promise<void>;
}

interface StoredTurn {
  status: string;
  stopReason?: string;
}

interface LociStore {
  getAgent(id: string): Promise<{ budgets: object } | undefined>;
  apply(changes: object): Promise<unknown>;
  queryMessages(id: string): Promise<{ role: string; text: string; toolCall?: { name: string } }[]>;
  listTurns(id: string): Promise<StoredTurn[]>;
}

const LIMIT_MS = 200;
const STALL_SECONDS = 2;
const REPEATS = FULL ? 3 : 1;
const HUGE_BYTES = FULL ? 50_000_000 : 5_000_000;
/** Runs only the kinds whose mode is listed (comma-separated), e.g. to check one against a build. */
const ONLY = process.env.LOCI_HOSTILE_ONLY?.split(',');
const MESSAGE = 'Hello from a hostile server, in one piece.';

/** One hostile kind: the server's mode, what the user does, and what the chat must show. */
interface Kind {
  name: string;
  switches: Record<string, unknown>;
  /** `stop`: press Stop while the reply streams (or hangs). */
  action: 'wait' | 'stop';
  /** The notice's code; absent: the turn ends with the reply. */
  code?: string;
  /** What the reply must contain when the turn ends with one. */
  reply?: string;
  /** What the notice's detail must contain. */
  detail?: (server: HostileServer) => string;
}

const KINDS: Kind[] = [
  {
    name: 'huge reply',
    switches: { mode: 'huge', bytes: HUGE_BYTES },
    action: 'wait',
    code: 'reply_too_long',
  },
  {
    name: 'huge single piece',
    switches: { mode: 'huge-piece', bytes: HUGE_BYTES },
    action: 'wait',
    code: 'reply_too_long',
  },
  {
    name: 'never-ending stream, Stop',
    switches: { mode: 'endless', pieceDelayMs: 50 },
    action: 'stop',
    code: 'cancelled',
  },
  {
    name: 'stall after the first byte',
    switches: { mode: 'stall-after-first' },
    action: 'wait',
    code: 'endpoint_stalled',
    detail: (server) => server.url,
  },
  {
    name: 'stall after the first byte, Stop',
    switches: { mode: 'stall-after-first' },
    action: 'stop',
    code: 'cancelled',
  },
  {
    name: 'stall before the headers',
    switches: { mode: 'stall-before-headers' },
    action: 'wait',
    code: 'endpoint_stalled',
    detail: (server) => server.url,
  },
  { name: '1-byte pieces', switches: { mode: 'one-byte' }, action: 'wait', reply: MESSAGE },
  { name: 'invalid UTF-8', switches: { mode: 'invalid-utf8' }, action: 'wait', reply: '\ufffd' },
  {
    name: 'unterminated JSON',
    switches: { mode: 'unterminated' },
    action: 'wait',
    code: 'invalid_tool_call',
  },
  { name: 'SSE garbage lines', switches: { mode: 'sse-garbage' }, action: 'wait', reply: MESSAGE },
  {
    name: 'redirect 307 to another origin',
    switches: { mode: 'redirect' },
    action: 'wait',
    code: 'endpoint_redirect',
  },
  {
    name: 'error 500 with text',
    switches: { mode: 'error-500' },
    action: 'wait',
    code: 'endpoint_failed',
    // The NUL and the terminal colour code are removed, the rest shown as text (E85).
    detail: () => 'CUDA error: out of memory in slot 3',
  },
];

let server: HostileServer;

test.beforeAll(async () => {
  server = (await startHostileServer()) as HostileServer;
});
test.afterAll(async () => {
  await server?.close();
});

const store = (page: Page) =>
  page.evaluate.bind(page) as <R, A>(fn: (arg: A) => Promise<R>, arg: A) => Promise<R>;

/**
 * Times Stop in the page (U290): from the click on Stop (capture phase) to the first moment the
 * Send button is back, seen by a mutation observer — no test-runner polling in the figure.
 */
async function observeStop(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __stopAt: number | null; __idleAt: number | null };
    w.__stopAt = null;
    w.__idleAt = null;
    const label = (el: Element) => el.textContent?.trim() ?? '';
    document.addEventListener(
      'click',
      (event) => {
        const button = (event.target as Element | null)?.closest('button');
        if (button && label(button) === 'Stop') {
          w.__stopAt = performance.now();
          w.__idleAt = null;
        }
      },
      true,
    );
    new MutationObserver(() => {
      if (w.__stopAt === null || w.__idleAt !== null) return;
      for (const button of document.querySelectorAll('button')) {
        if (label(button) === 'Send') w.__idleAt = performance.now();
      }
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
}

/** Saves the server with a short stall time, connects through the form and uses its model. */
async function connect(page: Page): Promise<string> {
  await page.goto('/#/models');
  await page.evaluate(
    ({ baseUrl, stallSeconds }) =>
      localStorage.setItem('loci.llm.endpoint', JSON.stringify({ baseUrl, stallSeconds })),
    { baseUrl: `${server.url}/v1`, stallSeconds: STALL_SECONDS },
  );
  await page.reload();
  const form = page.getByTestId('model-server');
  await expect(form.getByTestId('server-url')).toHaveValue(`${server.url}/v1`);
  await form.getByTestId('server-test').click();
  await expect(form.getByTestId('server-ok')).toBeVisible({ timeout: 30_000 });
  const shown = (await form.getByTestId('server-ok').textContent()) ?? '';
  await form.getByTestId('server-use').click();
  await expect(page.getByTestId('loaded-model')).toContainText('(your model server)');
  return shown;
}

/** A fresh agent whose turn stops at the first invalid step. */
async function freshAgent(page: Page, name: string): Promise<string> {
  await page.goto('/#/chat');
  const agentId = await createAgent(page, name);
  await store(page)(async (id: string) => {
    const s = (window as unknown as { __loci: { store: LociStore } }).__loci.store;
    const agent = await s.getAgent(id);
    if (!agent) throw new Error(`no agent ${id}`);
    await s.apply({
      agents: [{ ...agent, budgets: { ...agent.budgets, maxSteps: 2, maxInvalidSteps: 1 } }],
    });
  }, agentId);
  return agentId;
}

async function stored(page: Page, agentId: string) {
  return store(page)(async (id: string) => {
    const s = (window as unknown as { __loci: { store: LociStore } }).__loci.store;
    const [messages, turns] = await Promise.all([s.queryMessages(id), s.listTurns(id)]);
    return { messages, turns };
  }, agentId);
}

/** Runs one kind; returns what went wrong (empty: nothing) and the Stop latency, if pressed. */
async function runKind(
  page: Page,
  kind: Kind,
  round: number,
): Promise<{ problems: string[]; stopMs: number | null; lost: number }> {
  const problems: string[] = [];
  const agentId = await freshAgent(page, `Hostile ${round}`);
  server.control({ pieceDelayMs: 20, message: MESSAGE, ...kind.switches });
  const elsewhereBefore = server.stats().elsewhere;
  const text = `Turn ${round}: ${kind.name}`;
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
  const stop = page.getByRole('button', { name: 'Stop', exact: true });
  const send = page.getByRole('button', { name: 'Send', exact: true });
  let stopMs: number | null = null;
  if (kind.action === 'stop') {
    await stop.waitFor({ state: 'visible' });
    await page.waitForTimeout(300);
    await stop.click();
    await send.waitFor({ state: 'visible', timeout: 5_000 });
    stopMs = await page.evaluate(() => {
      const w = window as unknown as { __stopAt: number | null; __idleAt: number | null };
      return w.__stopAt !== null && w.__idleAt !== null ? w.__idleAt - w.__stopAt : null;
    });
    if (stopMs === null) problems.push('Stop to idle was not observed');
  } else {
    await send.waitFor({ state: 'visible', timeout: 60_000 });
  }
  const notice = page.getByTestId('chat-error');
  if (kind.code) {
    const code = await notice.getAttribute('data-code', { timeout: 5_000 }).catch(() => null);
    if (code !== kind.code) problems.push(`notice ${code ?? 'none'}, wanted ${kind.code}`);
    const words = (await notice.textContent().catch(() => '')) ?? '';
    if (words.trim().length < 40) problems.push(`notice without words: “${words}”`);
    if (kind.detail) {
      const detail =
        (await page
          .getByTestId('chat-error-detail')
          .textContent()
          .catch(() => '')) ?? '';
      if (!detail.includes(kind.detail(server))) problems.push(`detail “${detail.slice(0, 200)}”`);
    }
  } else if ((await notice.count()) > 0) {
    problems.push(`unexpected notice ${await notice.getAttribute('data-code')}`);
  }
  // Nothing half-saved: the user's message once; a reply only when the turn ended with one.
  const { messages, turns } = await stored(page, agentId);
  const users = messages.filter((m) => m.role === 'user').map((m) => m.text);
  const replies = messages
    .filter((m) => m.role === 'assistant' && m.toolCall?.name === 'send_message')
    .map((m) => m.text);
  // A fault of the server (not a step the model got wrong) leaves no step at all (A7).
  const steps = messages.filter((m) => m.role === 'assistant').length;
  if (kind.code && kind.code !== 'invalid_tool_call' && steps > 0) {
    problems.push(`${steps} half-saved steps`);
  }
  let lost = 0;
  if (users.length !== 1 || users[0] !== text) {
    problems.push(`user messages ${JSON.stringify(users)}`);
    if (!users.includes(text)) lost += 1;
  }
  if (kind.reply) {
    if (replies.length !== 1 || !replies[0]?.includes(kind.reply)) {
      problems.push(`replies ${JSON.stringify(replies.map((r) => r.slice(0, 80)))}`);
    }
  } else if (replies.length > 0) {
    problems.push(`half-saved replies ${JSON.stringify(replies.map((r) => r.slice(0, 80)))}`);
  }
  if (turns.some((t) => t.status === 'running')) problems.push('a turn is left running');
  if (server.stats().elsewhere !== elsewhereBefore) {
    problems.push('a request reached the other origin');
  }
  // The composer takes the next message: the page is idle.
  if (!(await send.isVisible())) problems.push('the chat is not idle');
  if (problems.length > 0)
    await page
      .getByTestId('chat-error')
      .getByRole('button', { name: 'Dismiss' })
      .click()
      .catch(() => undefined);
  return { problems, stopMs, lost };
}

/** Runs `work` and reads the longest main-thread task the observer saw meanwhile. */
async function measured<T>(
  page: Page,
  work: () => Promise<T>,
): Promise<{ value: T; wallMs: number }> {
  await page.evaluate(() => void ((window as unknown as { __longest: number }).__longest = 0));
  const value = await work();
  const wallMs = await page.evaluate(() => (window as unknown as { __longest: number }).__longest);
  return { value, wallMs };
}

test('X210 E80–E85 U290 U291: no hostile model server freezes the tab, defeats Stop, half-saves a reply or redirects the prompt', async ({
  page,
  browser,
  shoot,
}) => {
  test.setTimeout(FULL ? 900_000 : 150_000);
  await observeLongTasks(page);
  await observeStop(page);
  const shown = await connect(page);
  const failures: string[] = [];
  // E83: the server's absurd window (1e300, 1e308) is shown and planned as Loci's maximum.
  if (!shown.includes('131,072 tokens') || /\d{7,}/.test(shown.replace(/,/g, ''))) {
    failures.push(`absurd window: “${shown}”`);
  }
  // A first, ordinary turn loads what every first turn loads (search index, tokenizer chunk), so
  // the figures below are the hostile kinds' own.
  const warm = await runKind(
    page,
    { name: 'ordinary turn', switches: { mode: 'normal' }, action: 'wait', reply: MESSAGE },
    0,
  );
  for (const problem of warm.problems) failures.push(`ordinary turn: ${problem}`);
  const longest: Record<string, number> = {};
  const took: Record<string, number> = {};
  const stops: number[] = [];
  // X191: one trace over all kinds gives the CPU time of the page's longest task, which a wait
  // for a core on a loaded machine does not inflate.
  await startTaskTrace(browser, page);
  let lost = 0;
  let trials = 1;
  for (let round = 1; round <= REPEATS; round += 1) {
    for (const kind of KINDS) {
      if (ONLY && !ONLY.includes(String(kind.switches.mode))) continue;
      trials += 1;
      const began = Date.now();
      const { value, wallMs } = await measured(page, () => runKind(page, kind, round));
      took[kind.name] = Date.now() - began;
      longest[kind.name] = Math.max(longest[kind.name] ?? 0, Math.round(wallMs));
      if (value.stopMs !== null) stops.push(value.stopMs);
      lost += value.lost;
      for (const problem of value.problems)
        failures.push(`${kind.name} (round ${round}): ${problem}`);
    }
  }
  const cpu = await stopTaskTrace(browser);
  // The last kind's notice (error 500: the copy, then the server's own words), for people to see.
  await shoot(page, 'hostile-streams-server-error');
  if (cpu.timedTasks === 0) failures.push('the trace timed no main-thread task');
  if (cpu.longestCpuMs >= LIMIT_MS) {
    failures.push(`a main-thread task took ${Math.round(cpu.longestCpuMs)} ms of CPU`);
  }
  const overWall = Object.values(longest).filter((ms) => ms > LIMIT_MS).length;
  reportReliability({
    name: 'hostile-streams',
    rule: 'X210',
    trials,
    failures: failures.length,
    lost,
    details: {
      kinds: KINDS.length + 1,
      repeats: REPEATS,
      'huge MB': HUGE_BYTES / 1_000_000,
      'kinds with a long task over 200 ms (wall)': overWall,
      'longest task ms (wall)': Math.max(...Object.values(longest)),
      'longest task cpu ms': Math.round(cpu.longestCpuMs),
      'slowest Stop to idle ms': Math.round(Math.max(0, ...stops)),
    },
  });
  console.log('longest tasks (wall ms):', JSON.stringify(longest));
  console.log('time per kind (ms):', JSON.stringify(took));
  console.log('longest main-thread task CPU (ms):', Math.round(cpu.longestCpuMs));
  console.log('Stop click to idle, in the page (ms):', JSON.stringify(stops.map(Math.round)));
  expect(failures).toEqual([]);
  // A long task's wall time on a shared CI machine includes waiting for a core (X191); the CPU
  // bound above is the page's own work. Before issue 34, a 2 MB reply blocked for over a minute.
  for (const [name, ms] of Object.entries(longest)) expect(ms, name).toBeLessThan(1_500);
});
