/**
 * X40–X44: storage quota exhausted mid-turn (a `QuotaExceededError` thrown by IndexedDB itself,
 * at a seeded put, on the Dexie store over fake-indexeddb) and the LLM worker, the GPU device or
 * the embed worker lost mid-call. Each turn ends with a clear, mapped error — never a throw —
 * nothing already stored is lost, nothing is half-applied, and after the fault clears the
 * interrupted turn retries (or the unsaved message sends again) and succeeds.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { recoverInterruptedTurns, retryTurn } from '../../../src/core/agent/recover-turns';
import { runTurn } from '../../../src/core/agent/run-turn';
import type { TurnOutcome } from '../../../src/core/agent/turn-events';
import { AppError, type ErrorCode } from '../../../src/core/errors';
import type { CompletionRequest } from '../../../src/core/ports/llm-engine';
import type { Embedder } from '../../../src/core/ports/embedder';
import { createMemorySearch } from '../../../src/core/search/memory-search';
import { LocalVectorIndex } from '../../../src/adapters/search/local-vector-index';
import { MiniSearchLexicalIndex } from '../../../src/testing/minisearch-lexical-index';
import type { DexieMemoryStore } from '../../../src/adapters/storage/dexie';
import { createRealStack, type RealStack } from '../../../src/testing/real-stack';
import { seededRandom } from '../../../src/testing/seeded-random';
import { describeError } from '../../../src/ui/error-copy';
import { FULL, reportReliability } from './reliability-report';

const step = (fn: string, args: Record<string, unknown>, heartbeat: boolean) =>
  JSON.stringify({ thinking: 'ok', function: fn, arguments: args, request_heartbeat: heartbeat });

/** core edit → archival insert → reply, keyed on the tool result the model reads back. */
function chain(request: CompletionRequest): string {
  if (!request.jsonSchema) return 'Summary: the user talked about the garden.';
  const last = request.messages[request.messages.length - 1]?.content ?? '';
  if (last.startsWith('[result of core_memory_append]'))
    return step('archival_memory_insert', { content: `Archived: ${last.slice(0, 40)}` }, true);
  if (last.startsWith('[result of archival_memory_insert]'))
    return step('send_message', { message: 'Saved it.' }, false);
  return step('core_memory_append', { label: 'human', content: 'Likes gardens.' }, true);
}

/** Makes IndexedDB writes fail with QuotaExceededError from the `failFrom`-th put/add on. */
class QuotaFault {
  puts = 0;
  failFrom = Infinity;
  hits = 0;
  constructor() {
    const proto = (
      globalThis as unknown as { IDBObjectStore: { prototype: Record<string, unknown> } }
    ).IDBObjectStore.prototype;
    for (const method of ['put', 'add']) {
      const original = proto[method] as (...args: unknown[]) => unknown;
      // eslint-disable-next-line @typescript-eslint/no-this-alias
      const fault = this;
      proto[method] = function (this: unknown, ...args: unknown[]) {
        fault.puts += 1;
        if (fault.puts >= fault.failFrom) {
          fault.hits += 1;
          throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
        }
        return original.apply(this, args);
      };
    }
  }
  arm(after: number): void {
    this.puts = 0;
    this.failFrom = after;
  }
  clear(): void {
    this.failFrom = Infinity;
  }
}

interface Check {
  failures: string[];
  lost: number;
}

/** What was sent: whether it must be stored, and how many retries may have re-asked it (A17). */
type Sent = Map<string, { stored: boolean; retries: number }>;

/**
 * Invariants after a fault: each stored user text once (plus one copy per retry that re-asked it
 * at the end of the queue, rule A17), no edit or reply without its step record.
 */
async function checkStore(stack: RealStack, sent: Sent, c: Check, where: string) {
  const store = stack.store as DexieMemoryStore;
  const agentId = stack.agent.id;
  const messages = await store.queryMessages(agentId);
  const turns = await store.listTurns(agentId);
  const steps = new Map<string, Set<number>>();
  for (const t of turns) steps.set(t.id, new Set((await store.listSteps(t.id)).map((s) => s.step)));
  for (const [text, { stored, retries }] of sent) {
    const copies = messages.filter((m) => m.role === 'user' && m.text === text).length;
    if (copies > 1 + retries || (stored && copies < 1)) {
      c.lost += copies < 1 ? 1 : copies - 1 - retries;
      c.failures.push(`${where}: "${text}" stored ${copies} times`);
    }
  }
  for (const m of messages)
    if ((m.role === 'assistant' || m.role === 'tool') && m.turnId && !steps.get(m.turnId)?.size)
      c.failures.push(`${where}: message ${m.id} without a step record`);
  for (const v of await store.blockHistory(agentId, 'human'))
    if (v.source.type === 'tool' && !steps.get(v.source.turnId)?.has(v.source.step))
      c.failures.push(`${where}: human v${v.version} without its step record`);
  for (const p of await store.queryPassages(agentId))
    if (p.source.type === 'memory' && p.source.turnId && !steps.get(p.source.turnId)?.size)
      c.failures.push(`${where}: passage ${p.id} without a step record`);
}

function clearMessage(code: ErrorCode, c: Check, where: string): void {
  const copy = describeError(new AppError(code, 'x'));
  if (copy.what.length < 10 || copy.action.length < 10)
    c.failures.push(`${where}: no clear copy for ${code}`);
}

describe('X40 quota and faults', () => {
  it(`X40 X41: quota exhausted at seeded writes of ${FULL ? 200 : 40} turns — a clear error, nothing lost, a retry succeeds`, async () => {
    const TRIALS = FULL ? 200 : 40;
    const fault = new QuotaFault();
    const stack = await createRealStack({
      dbName: `reliability-quota-${Date.now()}`,
      rule: chain,
      window: 2048,
      autoRecall: true,
    });
    const random = seededRandom(0x9007a);
    const c: Check = { failures: [], lost: 0 };
    const sent: Sent = new Map();
    let hit = 0;
    let recovered = 0;
    const codes: Record<string, number> = {};
    for (let t = 0; t < TRIALS; t += 1) {
      const text = `Trial ${t}: ${'we planted tomatoes and beans in the garden. '.repeat(1 + Math.floor(random() * 6))}`;
      fault.arm(1 + Math.floor(random() * 14));
      let outcome: TurnOutcome;
      try {
        outcome = await runTurn(stack.deps, stack.agent.id, { type: 'user_message', text });
      } catch (error) {
        c.failures.push(`trial ${t}: runTurn threw ${String(error)}`);
        fault.clear();
        continue;
      }
      const faulted = fault.hits > 0;
      fault.clear();
      fault.hits = 0;
      sent.set(text, { stored: outcome.turnId !== null, retries: 0 });
      if (faulted) {
        hit += 1;
        const code = outcome.error?.code ?? 'none';
        codes[code] = (codes[code] ?? 0) + 1;
        if (outcome.stopReason !== 'error' || code !== 'storage_quota_exceeded')
          c.failures.push(`trial ${t}: quota fault ended as ${outcome.stopReason} / ${code}`);
        else clearMessage(code, c, `trial ${t}`);
      } else if (outcome.stopReason !== 'end_turn') {
        c.failures.push(`trial ${t}: no fault but ${outcome.stopReason} ${outcome.error?.code}`);
      }
      // The user frees space and reopens: running turns become interrupted; retry or resend.
      await recoverInterruptedTurns(stack.store, stack.agent.id, stack.clock);
      await checkStore(stack, sent, c, `trial ${t}`);
      if (outcome.stopReason !== 'end_turn') {
        const again = outcome.turnId
          ? await retryTurn(stack.deps, stack.agent.id, outcome.turnId)
          : await runTurn(stack.deps, stack.agent.id, { type: 'user_message', text });
        sent.set(text, { stored: true, retries: outcome.turnId ? 1 : 0 });
        if (again.stopReason === 'end_turn') recovered += 1;
        else
          c.failures.push(`trial ${t}: recovery ended as ${again.stopReason} ${again.error?.code}`);
        await checkStore(stack, sent, c, `trial ${t} after recovery`);
      }
    }
    reportReliability({
      name: 'quota-exhausted',
      rule: 'X40-X41',
      trials: TRIALS,
      failures: c.failures.length,
      lost: c.lost,
      details: {
        faultsHit: hit,
        recovered,
        ...Object.fromEntries(Object.entries(codes).map(([k, v]) => [`code.${k}`, v])),
      },
    });
    expect(c.failures.slice(0, 5)).toEqual([]);
    expect(c.lost).toBe(0);
    expect(hit).toBeGreaterThan(TRIALS / 4);
    expect(recovered).toBe(hit);
    (stack.store as DexieMemoryStore).close();
  }, 600_000);

  it('X42 X43 X44: the LLM worker crashing, the GPU device lost and the embed worker crashing mid-call end the turn clearly; a retry succeeds', async () => {
    const TRIALS = FULL ? 60 : 15;
    const random = seededRandom(0xfa17);
    const c: Check = { failures: [], lost: 0 };
    const perFault: Record<string, number> = {};
    let recovered = 0;
    let embedDown = false;
    const embedder: Embedder = {
      modelId: 'fault-embedder',
      dimension: 4,
      embedPassages: async (texts) => {
        if (embedDown) throw new AppError('worker_crashed', 'The embedding worker stopped.');
        return texts.map((t) => Float32Array.from([t.length % 7, 1, 0.5, 0.25]));
      },
      embedQuery: async (t) => {
        if (embedDown) throw new AppError('worker_crashed', 'The embedding worker stopped.');
        return Float32Array.from([t.length % 7, 1, 0.5, 0.25]);
      },
    };
    const stack = await createRealStack({
      dbName: `reliability-faults-${Date.now()}`,
      rule: chain,
      window: 2048,
    });
    const search = createMemorySearch({
      store: stack.store,
      lexical: new MiniSearchLexicalIndex(),
      vectors: new LocalVectorIndex(4),
      embedder,
      clock: stack.clock,
      vectorStore: stack.store,
    });
    await search.loadAgent(stack.agent.id);
    let llmFault: ErrorCode | null = null;
    let callsBeforeFault = 0;
    const engine = stack.engine;
    const faulty = Object.create(engine) as typeof engine;
    faulty.complete = async (request) => {
      if (llmFault && callsBeforeFault-- <= 0) {
        const code = llmFault;
        // Part of the reply streams, then the worker / device goes away mid-call.
        request.onDelta?.('{"thinking": "o');
        throw new AppError(
          code,
          code === 'device_lost' ? 'The GPU device was lost.' : 'The LLM worker stopped.',
        );
      }
      return engine.complete(request);
    };
    const deps = { ...stack.deps, engine: faulty, search };
    const sent: Sent = new Map();
    const kinds = ['worker_crashed', 'device_lost', 'embed_worker_crashed'] as const;
    for (let t = 0; t < TRIALS; t += 1) {
      const kind = kinds[t % kinds.length]!;
      perFault[kind] = (perFault[kind] ?? 0) + 1;
      const text = `Fault ${t}: tell me about the garden and the beans.`;
      if (kind === 'embed_worker_crashed') embedDown = true;
      else {
        llmFault = kind;
        callsBeforeFault = Math.floor(random() * 3);
      }
      let outcome: TurnOutcome;
      try {
        outcome = await runTurn(deps, stack.agent.id, { type: 'user_message', text });
      } catch (error) {
        c.failures.push(`trial ${t}: runTurn threw ${String(error)}`);
        continue;
      } finally {
        llmFault = null;
        embedDown = false;
      }
      sent.set(text, { stored: outcome.turnId !== null, retries: 0 });
      if (outcome.stopReason === 'error') {
        const code = outcome.error?.code as ErrorCode;
        const expected = kind === 'embed_worker_crashed' ? 'worker_crashed' : kind;
        if (code !== expected) c.failures.push(`trial ${t}: ${kind} ended as ${code}`);
        clearMessage(code, c, `trial ${t}`);
      } else if (kind !== 'embed_worker_crashed') {
        c.failures.push(`trial ${t}: ${kind} ended as ${outcome.stopReason}`);
      }
      await checkStore(stack, sent, c, `trial ${t}`);
      if (outcome.stopReason !== 'end_turn' && outcome.turnId) {
        sent.set(text, { stored: true, retries: 1 });
        const again = await retryTurn(deps, stack.agent.id, outcome.turnId);
        if (again.stopReason === 'end_turn') recovered += 1;
        else c.failures.push(`trial ${t}: retry ended as ${again.stopReason} ${again.error?.code}`);
        await checkStore(stack, sent, c, `trial ${t} after retry`);
      } else recovered += 1;
    }
    reportReliability({
      name: 'worker-and-device-faults',
      rule: 'X42-X44',
      trials: TRIALS,
      failures: c.failures.length,
      lost: c.lost,
      details: {
        recovered,
        ...Object.fromEntries(Object.entries(perFault).map(([k, v]) => [`fault.${k}`, v])),
      },
    });
    expect(c.failures.slice(0, 5)).toEqual([]);
    expect(recovered).toBe(TRIALS);
    stack.store.close();
  }, 600_000);
});
