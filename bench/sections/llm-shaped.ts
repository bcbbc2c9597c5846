/**
 * The CPU engine at real model sizes (issue 36): the app's WllamaEngine in Chromium (isolated,
 * the app's own thread rule for this machine) beside native llama.cpp (node-llama-cpp, the same
 * threads) on the same shape-true GGUF (scripts/make-shaped-gguf.mjs: the CPU catalog's
 * Qwen2.5-0.5B shape at Q4_K_M, the quantization the catalog downloads, and Q8_0), same prompt,
 * same run. Prefill tokens/s of a prompt read cold and decode tokens/s, and wllama ÷ native.
 * Also wllama at one thread (the old rule on a two-core machine) against the app's rule.
 * `--quick`: Q4_K_M only, a shorter prompt.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { threadsFor } from '../../src/adapters/llm/wllama/wllama-engine';
import type { CpuRunOptions } from '../browser/llm-cpu-entry';
import { withFixturePage } from '../browser/fixture-page';
import { longSystem } from '../lib/long-prompt';
import { measureNative } from '../lib/native-llama';
import type { BenchFigure, BenchSection } from '../types';
import { ensureShapedModel } from '../../scripts/make-shaped-gguf.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const ISOLATED = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
};

interface PageRun {
  threads: number;
  promptTokens: number;
  prefillTokensPerSecond: number;
  decodeTokensPerSecond: number;
}

async function inBrowser(file: string, threads: number, promptChars: number): Promise<PageRun> {
  const options: CpuRunOptions = { modelPath: '/models/shaped.gguf', promptChars, coldOnly: true };
  return withFixturePage(
    path.join(here, '../browser/llm-cpu-entry.ts'),
    (page) =>
      page.evaluate(
        ([t, o]) =>
          (
            window as unknown as { benchCpu(t: number, o: CpuRunOptions): Promise<PageRun> }
          ).benchCpu(t, o),
        [threads, options] as const,
      ),
    ISOLATED,
    { '/models/shaped.gguf': file },
  );
}

export const run: BenchSection = async ({ quick }) => {
  const threads = threadsFor(true, os.cpus().length);
  const promptChars = quick ? 1000 : 2600;
  const figures: BenchFigure[] = [];
  for (const quant of quick ? ['q4_k_m'] : ['q4_k_m', 'q8_0']) {
    const model = ensureShapedModel('qwen2.5-0.5b', quant) as { path: string; bytes: number };
    const native = await measureNative(model.path, threads, longSystem('A', promptChars));
    const wasm = await inBrowser(model.path, threads, promptChars);
    const size = `${(model.bytes / 1e6).toFixed(0)} MB`;
    const id = `llm_shaped.qwen0_5b.${quant}`;
    const phases = [
      [
        'prefill',
        'Prefill',
        '≥ 0.33× native',
        `${wasm.promptTokens}-token prompt read cold; ${size} file`,
      ],
      ['decode', 'Decode', '≥ 0.5× native', 'greedy, after the cold prompt'],
    ] as const;
    for (const [phase, name, target, notes] of phases) {
      const key = `${phase}TokensPerSecond` as const;
      figures.push({
        id: `${id}.${phase}_tps`,
        label: `${name}, Qwen2.5-0.5B shape ${quant.toUpperCase()}, wllama vs native, ${threads} threads`,
        unit: 'tokens/s',
        value: wasm[key],
        baseline: { label: 'native llama.cpp', value: native[key] },
        ratio: wasm[key] / native[key],
        target,
        notes,
      });
    }
    if (quant === 'q4_k_m' && threads > 1) {
      const one = await inBrowser(model.path, 1, promptChars);
      figures.push({
        id: `${id}.prefill_threads`,
        label: `Prefill, Qwen2.5-0.5B shape Q4_K_M, wllama at ${threads} threads vs 1`,
        unit: 'tokens/s',
        value: wasm.prefillTokensPerSecond,
        baseline: { label: 'one thread', value: one.prefillTokensPerSecond },
        ratio: wasm.prefillTokensPerSecond / one.prefillTokensPerSecond,
        notes: 'what the thread rule of ADR 0210 gains on this machine',
      });
    }
  }
  return figures;
};
