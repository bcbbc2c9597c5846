import { describe, expect, it } from 'vitest';
import type { Agent } from '../../../core/model';
import { agentCheck } from '../../../core/backup/record-checks';
import { defaultSampling, formOf, validateSettings, withSettings } from './agent-settings';

const agent: Agent = {
  id: 'a1',
  kind: 'companion',
  name: 'Sam',
  persona: '',
  modelId: null,
  strategy: 'memgpt',
  autoRecall: true,
  budgets: {
    replyReserve: 512,
    recallBudget: 400,
    warningFraction: 0.7,
    flushFraction: 1,
    targetFraction: 0.5,
    summaryMaxTokens: 300,
    maxSteps: 6,
    maxInvalidSteps: 2,
  },
  forgetting: { recallThreshold: 0.6, forgetThreshold: 1.5, relevanceTarget: 0.55, maxGram: 3 },
  createdAt: 1,
  updatedAt: 1,
};

describe('agent settings', () => {
  it('U70: a valid form becomes the agent record with the new strategy and thresholds', () => {
    const form = { ...formOf(agent), strategy: 'forgetting' as const, autoRecall: false };
    form.budgets.warningFraction = 0.8;
    const result = validateSettings(form);
    expect(result.ok).toBe(true);
    const next = withSettings(agent, form, 99);
    expect(next).toMatchObject({
      id: 'a1',
      strategy: 'forgetting',
      autoRecall: false,
      updatedAt: 99,
    });
    expect(next.budgets.warningFraction).toBe(0.8);
    expect(agent.budgets.warningFraction).toBe(0.7);
  });

  it('U71: thresholds out of order are refused with a sentence on the field', () => {
    const form = formOf(agent);
    form.budgets.warningFraction = 0.4;
    form.budgets.flushFraction = 0.3;
    const r = validateSettings(form);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error['budgets.targetFraction']).toMatch(/below the reminder to save/);
    expect(r.error['budgets.warningFraction']).toMatch(/not be above the summary point/);
  });

  it('U71: non-numbers, fractions above 1 and F₀ ≤ R₀ are refused', () => {
    const form = formOf(agent);
    form.budgets.flushFraction = 1.2;
    form.budgets.maxSteps = Number.NaN;
    form.forgetting.forgetThreshold = 0.5;
    const r = validateSettings(form);
    expect(r.ok ? [] : Object.keys(r.error).sort()).toEqual([
      'budgets.flushFraction',
      'budgets.maxSteps',
      'forgetting.forgetThreshold',
    ]);
  });

  it('X163: a setting above what a backup accepts (maxSteps 5,000, a budget of 2e9) is refused here', () => {
    const form = formOf(agent);
    form.budgets.maxSteps = 5_000;
    form.budgets.recallBudget = 2e9;
    const r = validateSettings(form);
    expect(r.ok ? {} : r.error).toEqual({
      'budgets.maxSteps': 'Model steps per turn must be a whole number from 1 to 1,000.',
      'budgets.recallBudget': 'Recalled memories must be a whole number from 0 to 1,000,000,000.',
    });
  });

  it('U207: an agent without sampling settings shows the defaults; a change is saved on the record', () => {
    expect(formOf(agent).sampling).toEqual({ temperature: 0.7, topP: 0.9 });
    const form = { ...formOf(agent), sampling: { temperature: 0.3, topP: 0.8 } };
    const checked = validateSettings(form);
    expect(checked.ok).toBe(true);
    const saved = withSettings(agent, form, 9);
    expect(saved.sampling).toEqual({ temperature: 0.3, topP: 0.8 });
    // What the form saves, a backup takes back (S27).
    expect(() => agentCheck(saved, 'agent')).not.toThrow();
    expect(formOf(saved).sampling).toEqual({ temperature: 0.3, topP: 0.8 });
  });

  it('U207: a temperature outside 0–2 or a top-p outside 0.05–1 is refused with a sentence on the field', () => {
    for (const [sampling, field] of [
      [{ temperature: -0.1, topP: 0.9 }, 'sampling.temperature'],
      [{ temperature: 2.5, topP: 0.9 }, 'sampling.temperature'],
      [{ temperature: NaN, topP: 0.9 }, 'sampling.temperature'],
      [{ temperature: null as unknown as number, topP: 0.9 }, 'sampling.temperature'],
      [{ temperature: 0.7, topP: 0 }, 'sampling.topP'],
      [{ temperature: 0.7, topP: 1.01 }, 'sampling.topP'],
    ] as const) {
      const checked = validateSettings({ ...formOf(agent), sampling });
      expect(checked.ok, JSON.stringify(sampling)).toBe(false);
      if (!checked.ok) {
        expect(Object.keys(checked.error)).toEqual([field]);
        expect(checked.error[field]).toMatch(/must be a number from/);
      }
    }
    // The ends of the ranges are allowed.
    expect(
      validateSettings({ ...formOf(agent), sampling: { temperature: 0, topP: 0.05 } }).ok,
    ).toBe(true);
    expect(validateSettings({ ...formOf(agent), sampling: { temperature: 2, topP: 1 } }).ok).toBe(
      true,
    );
  });

  it('U208: reset to defaults saves an agent that follows the defaults again', () => {
    const own: Agent = { ...agent, sampling: { temperature: 1.5, topP: 0.5 } };
    const saved = withSettings(own, { ...formOf(own), sampling: defaultSampling() }, 9);
    expect('sampling' in saved).toBe(false);
    expect(formOf(saved).sampling).toEqual({ temperature: 0.7, topP: 0.9 });
  });
});
