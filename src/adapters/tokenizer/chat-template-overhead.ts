import type { Tokens } from '../../core/units';

/** Chat-template families of the catalog's models. */
export type TemplateFamily = 'llama3' | 'chatml' | 'phi3' | 'gemma' | 'unknown';

/**
 * Tokens a chat template adds around each message, per family (rule E9), counted from each
 * family's published chat template (special tokens are one token each; a role name and a newline
 * one each):
 * - Llama 3: `<|start_header_id|>` role `<|end_header_id|>` `\n\n` … `<|eot_id|>` → 5
 * - ChatML (Qwen2.5, Qwen3, SmolLM2): `<|im_start|>` role `\n` … `<|im_end|>` `\n` → 5
 * - Phi-3.5: `<|role|>` `\n` … `<|end|>` `\n` → 4
 * - Gemma 2: `<start_of_turn>` role `\n` … `<end_of_turn>` `\n` → 5
 * Unknown templates count 6 (the estimator's figure) to stay on the safe side.
 */
export const MESSAGE_OVERHEAD: Record<TemplateFamily, Tokens> = {
  llama3: 5,
  chatml: 5,
  phi3: 4,
  gemma: 5,
  unknown: 6,
};

/** The template family of a web-llm model id. */
export function templateFamilyOf(modelId: string): TemplateFamily {
  if (/^(Llama-3|Hermes-3-Llama-3|DeepSeek-R1-Distill-Llama)/i.test(modelId)) return 'llama3';
  if (/^(Qwen|SmolLM2|DeepSeek-R1-Distill-Qwen)/i.test(modelId)) return 'chatml';
  if (/^Phi-3/i.test(modelId)) return 'phi3';
  if (/^gemma/i.test(modelId)) return 'gemma';
  return 'unknown';
}
