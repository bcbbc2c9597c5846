import type { CatalogEntry } from './build-catalog';

/**
 * Loci's preferred chat models, best first (ADR 0021): Qwen2.5-1.5B follows JSON schemas well,
 * covers Chinese and English, and needs ~1.6 GB; the others are fallbacks for smaller GPUs.
 */
export const DEFAULT_MODEL_PREFERENCE: readonly string[] = [
  'Qwen2.5-1.5B-Instruct',
  'Qwen3-1.7B',
  'Llama-3.2-1B-Instruct',
  'Qwen2.5-0.5B-Instruct',
  'Qwen3-0.6B',
  'SmolLM2-360M-Instruct',
];

/**
 * The model to offer first (rule E6): the most preferred entry that runs well, else the most
 * preferred that may be slow, else null (nothing runs here).
 */
export function pickDefaultModel(entries: readonly CatalogEntry[]): CatalogEntry | null {
  for (const wanted of ['runs_well', 'may_be_slow'] as const) {
    for (const baseId of DEFAULT_MODEL_PREFERENCE) {
      const entry = entries.find((e) => e.baseId === baseId && e.verdict.type === wanted);
      if (entry) return entry;
    }
  }
  return null;
}
