/**
 * The Settings form of one agent (U70–U72): strategy, budgets and thresholds, automatic recall,
 * forgetting-curve settings, sampling (U207, U208). Validation returns one sentence per bad field; a valid form becomes
 * the agent record written with `apply({ agents: [...] })`.
 */
import { DEFAULT_SAMPLING, SAMPLING_RANGES, samplingOf } from '../../../core/agent/sampling';
import { LIMITS } from '../../../core/backup/record-checks';
import type {
  Agent,
  ContextBudgets,
  ForgettingSettings,
  SamplingSettings,
  StrategyName,
} from '../../../core/model';
import { err, ok, type Result } from '../../../core/result';
import type { EpochMs } from '../../../core/units';

export interface AgentSettingsForm {
  strategy: StrategyName;
  autoRecall: boolean;
  budgets: ContextBudgets;
  forgetting: ForgettingSettings;
  /** The agent's own settings, or the defaults when it has none. */
  sampling: SamplingSettings;
}

/** Field path (`budgets.warningFraction`) → what is wrong with it. */
export type SettingsProblems = Partial<Record<string, string>>;

export const STRATEGY_CHOICES: readonly { value: StrategyName; label: string; detail: string }[] = [
  {
    value: 'memgpt',
    label: 'MemGPT tiers',
    detail:
      'Core memory, a recursive summary and a message queue; old messages are evicted into the summary and stay searchable.',
  },
  {
    value: 'forgetting',
    label: 'Forgetting curve',
    detail:
      'Past exchanges fade from short-term memory as they stop being relevant, and come back when they are.',
  },
  {
    value: 'recency',
    label: 'Recent turns',
    detail: 'The last few turns verbatim, then older turns from your side only, newest first.',
  },
  {
    value: 'window',
    label: 'Plain window',
    detail: 'As many of the newest messages as fit; nothing else.',
  },
];

export function formOf(agent: Agent): AgentSettingsForm {
  return {
    strategy: agent.strategy,
    autoRecall: agent.autoRecall,
    budgets: { ...agent.budgets },
    forgetting: { ...agent.forgetting },
    sampling: samplingOf(agent),
  };
}

/** The default sampling settings, for "Reset to defaults" (U208). */
export function defaultSampling(): SamplingSettings {
  return { temperature: DEFAULT_SAMPLING.temperature, topP: DEFAULT_SAMPLING.topP };
}

const isInt = (n: number) => Number.isInteger(n);

/** The form's problems, or the form itself when it is valid. */
export function validateSettings(
  form: AgentSettingsForm,
): Result<AgentSettingsForm, SettingsProblems> {
  const p: SettingsProblems = {};
  const b = form.budgets;
  const f = form.forgetting;
  const fraction = (key: keyof ContextBudgets, label: string) => {
    const v = b[key];
    if (!Number.isFinite(v) || v <= 0 || v > 1)
      p[`budgets.${key}`] = `${label} must be a percentage above 0 and at most 100.`;
  };
  // The maxima are the backup's (LIMITS, X161/X163): a setting saved here must import back.
  const count = (
    key: keyof ContextBudgets,
    label: string,
    min: number,
    max: number = LIMITS.counter,
  ) => {
    const v = b[key];
    if (!Number.isFinite(v) || !isInt(v) || v < min || v > max)
      p[`budgets.${key}`] =
        `${label} must be a whole number from ${min} to ${max.toLocaleString('en')}.`;
  };
  fraction('targetFraction', 'What is kept after a summary');
  fraction('warningFraction', 'The reminder to save');
  fraction('flushFraction', 'The summary point');
  if (
    !p['budgets.targetFraction'] &&
    !p['budgets.warningFraction'] &&
    b.targetFraction >= b.warningFraction
  ) {
    p['budgets.targetFraction'] =
      'What is kept after a summary must be below the reminder to save, or every summary would remind again at once.';
  }
  if (
    !p['budgets.warningFraction'] &&
    !p['budgets.flushFraction'] &&
    b.warningFraction > b.flushFraction
  ) {
    p['budgets.warningFraction'] =
      'The reminder to save must not be above the summary point: the model needs the reminder first.';
  }
  count('replyReserve', 'The room for the reply', 16);
  count('recallBudget', 'Recalled memories', 0);
  count('summaryMaxTokens', 'The summary length', 16);
  count('maxSteps', 'Model steps per turn', 1, LIMITS.steps);
  count('maxInvalidSteps', 'Unusable steps in a row', 1, LIMITS.steps);

  const unit = (key: keyof ForgettingSettings, label: string) => {
    const v = f[key];
    if (!Number.isFinite(v) || v <= 0 || v >= 1)
      p[`forgetting.${key}`] = `${label} must be between 0 and 1.`;
  };
  unit('recallThreshold', 'R₀ (recall threshold)');
  unit('relevanceTarget', 'R̂ (relevance target)');
  if (!Number.isFinite(f.forgetThreshold) || f.forgetThreshold <= 0) {
    p['forgetting.forgetThreshold'] = 'F₀ (forget threshold) must be above 0.';
  } else if (!p['forgetting.recallThreshold'] && f.forgetThreshold <= f.recallThreshold) {
    p['forgetting.forgetThreshold'] =
      'F₀ must be above R₀, as the forgetting-curve model requires.';
  }
  if (!isInt(f.maxGram) || f.maxGram < 1 || f.maxGram > 8) {
    p['forgetting.maxGram'] = 'A (longest gram) must be a whole number from 1 to 8.';
  }

  // The backup's ranges (S27): a setting saved here must import back.
  const sampled = (key: keyof SamplingSettings, label: string) => {
    const v = form.sampling[key];
    const { min, max } = SAMPLING_RANGES[key];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max)
      p[`sampling.${key}`] = `${label} must be a number from ${min} to ${max}.`;
  };
  sampled('temperature', 'Temperature');
  sampled('topP', 'Top-p');
  return Object.keys(p).length === 0 ? ok(form) : err(p);
}

/** The agent record with the form applied. */
export function withSettings(agent: Agent, form: AgentSettingsForm, at: EpochMs): Agent {
  const { sampling: _previous, ...rest } = agent;
  const s = form.sampling;
  // Settings equal to the defaults are not stored: the agent follows the defaults (ADR 0156).
  const own =
    s.temperature === DEFAULT_SAMPLING.temperature && s.topP === DEFAULT_SAMPLING.topP
      ? {}
      : { sampling: { temperature: s.temperature, topP: s.topP } };
  return {
    ...rest,
    strategy: form.strategy,
    autoRecall: form.autoRecall,
    budgets: { ...form.budgets },
    forgetting: { ...form.forgetting },
    ...own,
    updatedAt: at,
  };
}
