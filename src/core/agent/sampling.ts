/**
 * An agent's sampling settings (ADR 0156): the defaults that suit 0.5–3B models, the ranges a
 * setting may take (the Settings form and the backup check share them), and the settings a
 * step is sent with.
 */
import type { Agent, SamplingSettings } from '../model';

/**
 * Temperature 0.7 and top-p 0.9: small models drift into repetition when greedy and into
 * broken JSON when hot; these keep replies steady with some variety (ADR 0156).
 */
export const DEFAULT_SAMPLING: Readonly<SamplingSettings> = Object.freeze({
  temperature: 0.7,
  topP: 0.9,
});

/** The inclusive range of each setting. */
export const SAMPLING_RANGES: Readonly<
  Record<keyof SamplingSettings, { readonly min: number; readonly max: number }>
> = Object.freeze({
  temperature: Object.freeze({ min: 0, max: 2 }),
  topP: Object.freeze({ min: 0.05, max: 1 }),
});

/** The settings every step of this agent is sent with: its own, or the defaults. */
export function samplingOf(agent: Pick<Agent, 'sampling'>): SamplingSettings {
  const s = agent.sampling;
  return s
    ? { temperature: s.temperature, topP: s.topP }
    : { temperature: DEFAULT_SAMPLING.temperature, topP: DEFAULT_SAMPLING.topP };
}
