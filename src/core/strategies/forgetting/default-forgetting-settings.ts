/**
 * Default thresholds of the forgetting strategy. The reasons, with numbers, are in
 * docs/forgetting-curve.md ("Defaults"); in short, with R = 0.5 for a memory that shares
 * nothing with the dialogue:
 * - R̂ = 0.6: an unrelated round adds tanh(0.1) ≈ 0.10 to F, a round that shares only
 *   common words (R ≈ 0.3) adds ≈ 0.29, a clearly related round (R ≈ 1) removes ≈ 0.38;
 * - F₀ = 1.5: forgotten after 16 unrelated rounds, or 6 rounds of common-word-only overlap;
 * - R₀ = 0.9 (r ≥ 2.2): recalled when the dialogue shares a word or bigram that few memories
 *   have, not when it shares only function words;
 * - A = 3: keywords are mostly 2–3 characters (seed 001) or 1–3 words.
 */
import type { ForgettingSettings } from '../../model';

/** The defaults of `agent.forgetting`; F₀ > R₀ as the seed requires. */
export function defaultForgettingSettings(): ForgettingSettings {
  return { recallThreshold: 0.9, forgetThreshold: 1.5, relevanceTarget: 0.6, maxGram: 3 };
}
