import { describe, expect, it } from 'vitest';
import type { ContextPlan } from '../../../core/context/plan-context';
import type { ContextBudgets } from '../../../core/model';
import { contextBarModel } from './context-sections';

const budgets: ContextBudgets = {
  replyReserve: 512,
  recallBudget: 300,
  warningFraction: 0.7,
  flushFraction: 1,
  targetFraction: 0.5,
  summaryMaxTokens: 256,
  maxSteps: 6,
  maxInvalidSteps: 2,
};

const plan = (sections: ContextPlan['sections'], window = 4096): ContextPlan => ({
  strategy: 'memgpt',
  window,
  total: Object.values(sections).reduce((a, b) => a + b, 0),
  sections,
  messages: [],
  messageIds: [],
  overflowIds: [],
  evictableIds: [],
  memories: [],
  demand: 0,
  prompt: [],
});

describe('contextBarModel', () => {
  it('U50: the segments are the plan’s own numbers plus the free rest, and fill the window', () => {
    const sections = {
      system: 180,
      tools: 330,
      core: 80,
      summary: 40,
      memories: 60,
      messages: 900,
      reserve: 512,
    };
    const m = contextBarModel(plan(sections), budgets);
    expect(m.segments.map((s) => [s.part, s.tokens])).toEqual([
      ['system', 180],
      ['tools', 330],
      ['core', 80],
      ['summary', 40],
      ['memories', 60],
      ['messages', 900],
      ['reserve', 512],
      ['free', 4096 - 2102],
    ]);
    expect(m.segments.reduce((a, s) => a + s.share, 0)).toBeCloseTo(1, 10);
    expect(m.used).toBe(2102);
  });

  it('U50: the marks sit at the budget fractions of the window', () => {
    const m = contextBarModel(
      plan({ system: 1, tools: 0, core: 0, summary: 0, memories: 0, messages: 0, reserve: 0 }),
      budgets,
    );
    expect(m.marks.map((k) => [k.type, k.tokens, k.at])).toEqual([
      ['target', 2048, 0.5],
      ['warning', 2867, 0.7],
      ['flush', 4096, 1],
    ]);
  });

  it('U50: pressure compares the prompt without the reply reserve against the marks', () => {
    const at = (messages: number) =>
      contextBarModel(
        plan({ system: 0, tools: 0, core: 0, summary: 0, memories: 0, messages, reserve: 512 }),
        budgets,
      ).pressure;
    expect(at(2866)).toBe('ok');
    expect(at(2868)).toBe('warning');
    expect(at(3584)).toBe('warning');
  });
});
