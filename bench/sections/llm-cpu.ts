/**
 * The CPU engine in real Chromium (Debian's /usr/bin/chromium): the app's WllamaEngine on the
 * fixture GGUF model. Prefill and decode tokens/s at one thread (baseline) and, cross-origin
 * isolated, two; time to first token of a ~1,000-token prompt cold (baseline) and with its prefix
 * cached by llama.cpp. The fixture is tiny and random: the figures are about the engine path and
 * cache reuse, not about a real model's speed.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withFixturePage } from '../browser/fixture-page';
import type { BenchFigure, BenchSection } from '../types';

const here = path.dirname(fileURLToPath(import.meta.url));

interface CpuRun {
  threads: number;
  isolated: boolean;
  promptTokens: number;
  prefillTokensPerSecond: number;
  decodeTokensPerSecond: number;
  coldTtftMs: number;
  warmTtftMs: number;
  warmCachedTokens: number;
  warmPromptTokens: number;
}

async function measure(threads: number, isolated: boolean): Promise<CpuRun> {
  return withFixturePage(
    path.join(here, '../browser/llm-cpu-entry.ts'),
    (page) =>
      page.evaluate(
        (t) => (window as unknown as { benchCpu(t: number): Promise<CpuRun> }).benchCpu(t),
        threads,
      ),
    isolated
      ? {
          'cross-origin-opener-policy': 'same-origin',
          'cross-origin-embedder-policy': 'require-corp',
        }
      : undefined,
  );
}

export const run: BenchSection = async () => {
  const one = await measure(1, false);
  const two = await measure(2, true);
  const figures: BenchFigure[] = [];
  figures.push({
    id: 'llm_cpu.fixture.prefill_tps',
    label: `CPU engine prefill, fixture, ${two.threads} threads (isolated) vs 1 thread`,
    unit: 'tokens/s',
    value: two.prefillTokensPerSecond,
    baseline: { label: '1 thread, not isolated', value: one.prefillTokensPerSecond },
    ratio: two.prefillTokensPerSecond / one.prefillTokensPerSecond,
    notes: `tokens/s over a ${one.promptTokens}-token prompt`,
  });
  figures.push({
    id: 'llm_cpu.fixture.decode_tps',
    label: `CPU engine decode, fixture, ${two.threads} threads (isolated) vs 1 thread`,
    unit: 'tokens/s',
    value: two.decodeTokensPerSecond,
    baseline: { label: '1 thread, not isolated', value: one.decodeTokensPerSecond },
    ratio: two.decodeTokensPerSecond / one.decodeTokensPerSecond,
    notes: 'tokens/s, unconstrained text (the free-text grammar), temperature 0',
  });
  for (const r of [one, two]) {
    figures.push({
      id: `llm_cpu.fixture.ttft_cached_prefix_${r.threads}t_ms`,
      label: `Time to first token, ~1,000-token prompt with its prefix cached, ${r.threads} thread(s)`,
      unit: 'ms',
      value: r.warmTtftMs,
      baseline: { label: 'same prompt size, nothing cached', value: r.coldTtftMs },
      ratio: r.coldTtftMs / r.warmTtftMs,
      notes: `${r.warmCachedTokens} of ${r.warmPromptTokens} prompt tokens reused from the cache`,
    });
  }
  return figures;
};
