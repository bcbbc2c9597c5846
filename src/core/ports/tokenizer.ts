import type { Tokens } from '../units';

/**
 * Counts tokens the way the model will see them. `countMessage` adds the chat template's
 * per-message overhead (role markers, separators) to the content's count.
 */
export interface Tokenizer {
  /** What this tokenizer is (a model's tokenizer.json, or an estimator with its margin). */
  readonly name: string;
  /** True when counts are exact for the loaded model; false for an estimator. */
  readonly exact: boolean;
  count(text: string): Tokens;
  countMessage(role: string, content: string): Tokens;
  /**
   * Tokens every prompt adds after its messages: the generation header (and BOS where the model
   * adds one). Absent: callers count an empty assistant message instead, a safe over-count.
   */
  countGeneration?(): Tokens;
}
