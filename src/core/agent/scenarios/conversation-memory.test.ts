/**
 * Scenarios (a), (b), (f) of issue 5, end to end through runTurn on the real stack (Dexie over
 * fake-indexeddb, hybrid search, scripted engine with rules that read the prompt, Llama 3 counts).
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { CompletionRequest } from '../../ports/llm-engine';
import {
  afterTool,
  lastTurn,
  lastUserText,
  reply,
  step,
  systemText,
} from '../../../testing/agent-fixture';
import { createRealStack } from '../../../testing/real-stack';
import { randomText, seededRandom } from '../../../testing/seeded-random';
import { runTurn } from '../run-turn';
import type { TurnEvent } from '../turn-events';

const isSummary = (r: CompletionRequest) => r.jsonSchema === undefined;
const summaryOf = (r: CompletionRequest) =>
  `Earlier: ${(r.messages[1]?.content ?? '').slice(-120).replace(/\s+/g, ' ')}`;

describe('scenarios: conversation memory', () => {
  it('A13 (a): a fact saved to core memory is used 200 messages later, after several evictions', async () => {
    const rule = (r: CompletionRequest): string => {
      if (isSummary(r)) return summaryOf(r);
      const user = lastUserText(r);
      const sister = /my sister's name is (\w+)/i.exec(user);
      if (sister && !afterTool(r)) {
        return step(
          'core_memory_append',
          { label: 'human', content: `Sister: ${sister[1]}.` },
          true,
          'Save her sister.',
        );
      }
      if (/what is my sister's name/i.test(user)) {
        const known = /Sister: (\w+)\./.exec(systemText(r));
        return reply(known ? `Your sister is ${known[1]}.` : 'I do not know.');
      }
      return reply(`Got it: ${user.slice(0, 40)}`);
    };
    const stack = await createRealStack({ dbName: 'scenario-a', rule });
    const events: TurnEvent[] = [];
    const onEvent = (e: TurnEvent) => events.push(e);
    await runTurn(
      stack.deps,
      stack.agent.id,
      { type: 'user_message', text: "My sister's name is Zoe." },
      { onEvent },
    );
    const random = seededRandom(42);
    for (let i = 0; i < 100; i += 1) {
      const outcome = await runTurn(
        stack.deps,
        stack.agent.id,
        {
          type: 'user_message',
          text: `Day ${i}: ${randomText(random, 20 + Math.floor(random() * 40))}`,
        },
        { onEvent },
      );
      expect(outcome.stopReason).toBe('end_turn');
    }
    const outcome = await runTurn(
      stack.deps,
      stack.agent.id,
      { type: 'user_message', text: "What is my sister's name?" },
      { onEvent },
    );
    expect(outcome.replies).toEqual(['Your sister is Zoe.']);
    expect(await stack.store.countMessages(stack.agent.id)).toBeGreaterThanOrEqual(200);
    const flushes = events.filter((e) => e.type === 'summary.created');
    expect(flushes.length).toBeGreaterThanOrEqual(3);
    const [first] = await stack.store.queryMessages(stack.agent.id, { limit: 1 });
    expect(first?.inContext).toBe(false);
    for (const e of events)
      if (e.type === 'context.planned') expect(e.plan.total).toBeLessThanOrEqual(4096);
  }, 120_000);

  it('T4 T8 (b): conversation_search pages through results to find an old detail', async () => {
    const searched: number[] = [];
    const rule = (r: CompletionRequest): string => {
      if (isSummary(r)) return summaryOf(r);
      const user = lastUserText(r);
      if (/what was my locker code/i.test(user)) {
        if (!afterTool(r, 'conversation_search')) {
          searched.push(1);
          return step('conversation_search', { query: 'locker', page: 1 }, true, 'Search recall.');
        }
        const result = lastTurn(r).content;
        const code = /locker code is (\d{4})/i.exec(result);
        if (code) return reply(`Your locker code is ${code[1]}.`);
        const next = /Next: page (\d+)/.exec(result);
        if (next) {
          searched.push(Number(next[1]));
          return step(
            'conversation_search',
            { query: 'locker', page: Number(next[1]) },
            true,
            'Next page.',
          );
        }
        return reply('I could not find it.');
      }
      return reply('Noted.');
    };
    const stack = await createRealStack({ dbName: 'scenario-b', rule, autoRecall: false });
    await runTurn(stack.deps, stack.agent.id, {
      type: 'user_message',
      text: 'By the way, my gym locker code is 4471, at the pool downtown.',
    });
    for (let i = 0; i < 14; i += 1) {
      await runTurn(stack.deps, stack.agent.id, {
        type: 'user_message',
        text: `Locker ${i} jammed.`,
      });
    }
    const outcome = await runTurn(stack.deps, stack.agent.id, {
      type: 'user_message',
      text: 'What was my locker code?',
    });
    expect(outcome.replies).toEqual(['Your locker code is 4471.']);
    expect(searched.length).toBeGreaterThan(1);
    expect(searched).toEqual(searched.map((_, i) => i + 1));
  }, 120_000);

  it('C6 C7 (f): at memory pressure the model saves to archival before the flush', async () => {
    const rule = (r: CompletionRequest): string => {
      if (isSummary(r)) return summaryOf(r);
      const last = lastTurn(r).content;
      if (last.startsWith('[system alert') && last.includes('Memory pressure')) {
        const facts = r.messages
          .filter((t) => t.role === 'user' && /^Fact \d+:/.test(t.content))
          .map((t) => t.content);
        return step(
          'archival_memory_insert',
          { content: facts.join(' ') },
          true,
          'Save facts before eviction.',
        );
      }
      return reply('Okay.');
    };
    const stack = await createRealStack({ dbName: 'scenario-f', rule, window: 2048 });
    const events: TurnEvent[] = [];
    const random = seededRandom(7);
    for (let i = 0; i < 30; i += 1) {
      await runTurn(
        stack.deps,
        stack.agent.id,
        { type: 'user_message', text: `Fact ${i}: ${randomText(random, 25)}` },
        { onEvent: (e) => events.push(e) },
      );
    }
    const firstFlush = events.findIndex((e) => e.type === 'summary.created');
    const firstSave = events.findIndex(
      (e) => e.type === 'memory.changed' && e.changes.some((c) => c.type === 'archival'),
    );
    expect(firstFlush).toBeGreaterThan(0);
    expect(firstSave).toBeGreaterThanOrEqual(0);
    expect(firstSave).toBeLessThan(firstFlush);
    const flushed = events[firstFlush];
    const evicted =
      flushed?.type === 'summary.created' ? await stack.store.getMessages(flushed.evictedIds) : [];
    const passages = await stack.store.queryPassages(stack.agent.id);
    const saved = passages.map((p) => p.text).join(' ');
    // Every user fact the flush evicted had been saved to archival first.
    for (const m of evicted.filter((e) => e.role === 'user')) expect(saved).toContain(m.text);
  }, 120_000);
});
