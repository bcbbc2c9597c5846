import { describe, expect, it } from 'vitest';
import { runTurn } from '../agent/run-turn';
import type { TurnEvent } from '../agent/turn-events';
import type { CompletionRequest } from '../ports/llm-engine';
import { createAgentFixture, reply, step } from '../../testing/agent-fixture';
import { randomText, seededRandom } from '../../testing/seeded-random';
import { reservedRecall } from './plan-context';
import { isMemoryPressureAlert, MEMORY_PRESSURE } from './queue-manager';

/** Answers summary requests (no schema) with `summary`, steps with a reply of `words` words. */
function chatRule(words: () => number, summary: (r: CompletionRequest) => string | Error) {
  return (request: CompletionRequest) =>
    request.jsonSchema
      ? reply(randomText(seededRandom(request.messages.length), words()))
      : summary(request);
}

describe('queue manager', () => {
  it('C7: one memory-pressure alert per crossing of the warning line', async () => {
    const fx = await createAgentFixture({
      window: 2048,
      rule: chatRule(
        () => 30,
        () => 'They chatted.',
      ),
    });
    const events: TurnEvent[] = [];
    for (let i = 0; i < 40; i += 1) {
      await runTurn(
        fx.deps,
        fx.agent.id,
        { type: 'user_message', text: `turn ${i} ${randomText(seededRandom(i), 25)}` },
        { onEvent: (e) => events.push(e) },
      );
    }
    const messages = await fx.store.queryMessages(fx.agent.id);
    const alerts = messages.filter((m) => m.speaker === MEMORY_PRESSURE);
    const flushes = events.filter((e) => e.type === 'summary.created').length;
    expect(flushes).toBeGreaterThanOrEqual(2);
    expect(alerts.length).toBeGreaterThanOrEqual(2);
    // Never two alerts without a flush between them.
    expect(alerts.length).toBeLessThanOrEqual(flushes + 1);
    for (const e of events)
      if (e.type === 'context.planned') expect(e.plan.total).toBeLessThanOrEqual(2048);
  });

  it('C10 C11: seeded fuzz — flushes evict an oldest prefix to the target; every message stays in recall', async () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const random = seededRandom(seed);
      const fx = await createAgentFixture({
        window: pick([2048, 3072, 4096], random),
        rule: chatRule(
          () => 5 + Math.floor(random() * 80),
          () =>
            random() < 0.3 ? new Error('summarizer down') : `Summary ${randomText(random, 30)}`,
        ),
      });
      const events: TurnEvent[] = [];
      let written = 0;
      for (let i = 0; i < 60; i += 1) {
        const outcome = await runTurn(
          fx.deps,
          fx.agent.id,
          { type: 'user_message', text: randomText(random, 1 + Math.floor(random() * 60)) },
          { onEvent: (e) => events.push(e) },
        );
        expect(outcome.stopReason, `seed ${seed} turn ${i}: ${outcome.error?.message}`).toBe(
          'end_turn',
        );
        written = await fx.store.lastSeq(fx.agent.id);
      }
      const all = await fx.store.queryMessages(fx.agent.id);
      expect(all.length).toBe(written);
      expect(all.map((m) => m.seq)).toEqual(all.map((_, i) => i + 1));
      // In-context messages are a suffix: once a message is in, everything after it is too —
      // but a memory-pressure alert a flush answered (C7, C11).
      const firstIn = all.findIndex((m) => m.inContext);
      expect(all.slice(firstIn).every((m) => m.inContext || isMemoryPressureAlert(m))).toBe(true);
      const summaries = events.flatMap((e) => (e.type === 'summary.created' ? [e] : []));
      expect(summaries.length, `seed ${seed}`).toBeGreaterThan(0);
      let lastTo = 0;
      for (const s of summaries) {
        expect(s.summary.toSeq).toBeGreaterThan(lastTo);
        lastTo = s.summary.toSeq;
        expect(s.summary.tokens).toBeLessThanOrEqual(fx.agent.budgets.summaryMaxTokens);
        if (s.fallback) expect(s.summary.method).toBe('extractive');
      }
      const latest = await fx.store.latestSummary(fx.agent.id);
      // Everything out of the queue is summarized, but the alerts a flush answered (C7).
      expect(
        all
          .filter((m) => !m.inContext && !isMemoryPressureAlert(m))
          .every((m) => m.seq <= (latest?.toSeq ?? 0)),
      ).toBe(true);
      for (const e of events)
        if (e.type === 'context.planned')
          expect(e.plan.total).toBeLessThanOrEqual(fx.engine.contextWindow());
      // C8: right after a flush the prompt is down at the target, give or take the new summary
      // (its text is bounded by summaryMaxTokens, its header by a few tokens).
      const { targetFraction, replyReserve, summaryMaxTokens } = fx.agent.budgets;
      events.forEach((e, i) => {
        if (e.type !== 'summary.created') return;
        const next = events.slice(i).find((x) => x.type === 'context.planned');
        if (next?.type !== 'context.planned') return;
        // Evicted turns become recallable, so memories refill after a flush; demand holds their
        // room back, never the lines themselves (ADR 0203): the target bounds the rest (V18).
        const used = next.plan.demand - replyReserve - reservedRecall(fx.agent, 'memgpt');
        expect(used, `seed ${seed}`).toBeLessThanOrEqual(
          targetFraction * next.plan.window + summaryMaxTokens + 32,
        );
      });
    }
  }, 120_000);

  it('C10: the model writes the recursive summary from the previous summary and the evicted messages', async () => {
    const seen: string[] = [];
    const fx = await createAgentFixture({
      window: 2048,
      rule: chatRule(
        () => 40,
        (r) => {
          seen.push(r.messages[1]?.content ?? '');
          return `S${seen.length}: the user shared things.`;
        },
      ),
    });
    for (let i = 0; i < 30; i += 1)
      await runTurn(fx.deps, fx.agent.id, {
        type: 'user_message',
        text: `fact ${i} ${randomText(seededRandom(i), 30)}`,
      });
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen[1]).toContain('Previous summary:\nS1: the user shared things.');
    expect(seen[0]).toContain('User: fact 0');
    const latest = await fx.store.latestSummary(fx.agent.id);
    expect(latest?.method).toBe('model');
    expect(latest?.fromSeq).toBe(1);
  });

  it("C26: an engine that keeps a common prefix gets a summary request that opens with the step's own system message; web-llm gets the summarizer's", async () => {
    for (const prefixCache of [true, false]) {
      const fx = await createAgentFixture({
        window: 2048,
        prefixCache,
        rule: chatRule(
          () => 40,
          () => 'The user shared facts.',
        ),
      });
      for (let i = 0; i < 30; i += 1)
        await runTurn(fx.deps, fx.agent.id, {
          type: 'user_message',
          text: `fact ${i} ${randomText(seededRandom(i), 30)}`,
        });
      const requests = fx.engine.requests;
      const at = requests.findIndex((r) => !r.jsonSchema);
      expect(at, `prefixCache ${prefixCache}`).toBeGreaterThan(0);
      const summary = requests[at]!;
      const before = requests[at - 1]!;
      if (prefixCache) {
        // The step before the flush and the summary request share the whole system message.
        expect(summary.messages[0]).toEqual(before.messages[0]);
        expect(summary.messages[1]?.content).toContain('[Memory manager, not the user]');
        expect(summary.messages[1]?.content).toContain('User: fact 0');
        // A later flush finds the previous summary at the end of the system message and does
        // not repeat it in the task.
        const later = requests.filter((r) => !r.jsonSchema)[1];
        expect(later?.messages[0]?.content).toContain('The user shared facts.');
        expect(later?.messages[1]?.content).not.toContain('The user shared facts.');
        expect(later?.messages[1]?.content).toContain(
          '(the summary of earlier conversation above)',
        );
      } else {
        expect(summary.messages[0]?.content).toMatch(/^You maintain the running summary/);
      }
      expect((await fx.store.latestSummary(fx.agent.id))?.text).toBe('The user shared facts.');
    }
  });

  it('C12 C26: a summary answered with a JSON step is no summary: the extractive fallback writes it', async () => {
    const fx = await createAgentFixture({
      window: 2048,
      prefixCache: true,
      rule: chatRule(
        () => 40,
        () => reply('Here is my summary.'),
      ),
    });
    const events: TurnEvent[] = [];
    for (let i = 0; i < 25; i += 1)
      await runTurn(
        fx.deps,
        fx.agent.id,
        { type: 'user_message', text: `fact ${i}: likes ${randomText(seededRandom(i), 20)}` },
        { onEvent: (e) => events.push(e) },
      );
    const created = events.flatMap((e) => (e.type === 'summary.created' ? [e] : []));
    expect(created.length).toBeGreaterThan(0);
    expect(created[0]?.fallback).toBe('schema_violation');
    expect(created[0]?.summary.method).toBe('extractive');
  });

  it('C12: when the summarizer fails, the extractive fallback keeps the turn going', async () => {
    const fx = await createAgentFixture({
      window: 2048,
      rule: chatRule(
        () => 40,
        () => new Error('offline'),
      ),
    });
    const events: TurnEvent[] = [];
    for (let i = 0; i < 25; i += 1) {
      const outcome = await runTurn(
        fx.deps,
        fx.agent.id,
        { type: 'user_message', text: `fact ${i}: likes ${randomText(seededRandom(i), 20)}` },
        { onEvent: (e) => events.push(e) },
      );
      expect(outcome.stopReason).toBe('end_turn');
    }
    const created = events.flatMap((e) => (e.type === 'summary.created' ? [e] : []));
    expect(created.length).toBeGreaterThan(0);
    expect(created[0]?.fallback).toBe('internal');
    expect(created[0]?.summary.method).toBe('extractive');
    expect(created[0]?.summary.text).toMatch(/^User: fact \d+: likes/);
    expect(created[0]?.summary.tokens).toBeLessThanOrEqual(fx.agent.budgets.summaryMaxTokens);
  });

  it('C12: a fallback summary carries the one before it forward and says what it covers', async () => {
    const fx = await createAgentFixture({
      window: 4096,
      rule: chatRule(
        () => 40,
        () => new Error('offline'),
      ),
    });
    const events: TurnEvent[] = [];
    for (let i = 0; i < 60; i += 1)
      await runTurn(
        fx.deps,
        fx.agent.id,
        { type: 'user_message', text: `fact ${i}: likes ${randomText(seededRandom(i), 30)}` },
        { onEvent: (e) => events.push(e) },
      );
    const created = events.flatMap((e) => (e.type === 'summary.created' ? [e.summary] : []));
    expect(created.length).toBeGreaterThanOrEqual(2);
    for (const [i, summary] of created.entries()) {
      expect(summary.method).toBe('extractive');
      expect(summary.tokens).toBeLessThanOrEqual(fx.agent.budgets.summaryMaxTokens);
      const before = created[i - 1];
      if (!before) continue;
      // The newest facts of the summary it replaces are still there, so its range still starts
      // where that one's did.
      expect(summary.text).toContain(before.text.split('\n').pop()!);
      expect(summary.fromSeq).toBe(before.fromSeq);
      // …and it holds some of what this flush evicted.
      expect(summary.text.split('\n').pop()).not.toBe(before.text.split('\n').pop());
    }
  });

  it('C8: a flush happens mid-turn when a long tool chain fills the window', async () => {
    let n = 0;
    const fx = await createAgentFixture({
      window: 2048,
      budgets: { maxSteps: 30 },
      rule: (r) =>
        r.jsonSchema
          ? ++n < 20
            ? step('archival_memory_insert', { content: randomText(seededRandom(n), 40) }, true)
            : reply('done')
          : 'summary',
    });
    n = 100;
    for (let i = 0; i < 4; i += 1)
      await runTurn(fx.deps, fx.agent.id, {
        type: 'user_message',
        text: `warm-up ${i} ${randomText(seededRandom(i), 30)}`,
      });
    n = 0;
    const events: TurnEvent[] = [];
    const outcome = await runTurn(
      fx.deps,
      fx.agent.id,
      { type: 'user_message', text: 'Save twenty notes.' },
      { onEvent: (e) => events.push(e) },
    );
    expect(outcome.stopReason).toBe('end_turn');
    expect(events.some((e) => e.type === 'summary.created')).toBe(true);
    const trigger = [...fx.store.messages.values()].find((m) => m.text === 'Save twenty notes.');
    expect(trigger?.inContext).toBe(true);
    // Every step's prompt still holds the question, even when the chain outgrew the window.
    for (const e of events)
      if (e.type === 'context.planned') expect(e.plan.messageIds).toContain(trigger?.id);
  });
});

function pick<T>(items: T[], random: () => number): T {
  return items[Math.floor(random() * items.length)] as T;
}
