/**
 * Runs in Chromium: the app's own CPU engine (WllamaEngine, the adapter the LLM worker hosts) on
 * the fixture GGUF. Prefill and decode speed at a given thread count, and time to first token for
 * a ~1,000-token prompt read cold and with its prefix already in llama.cpp's cache.
 */
import { WllamaEngine } from '../../src/adapters/llm/wllama/wllama-engine';
import type { ChatTurn } from '../../src/core/ports/llm-engine';
import { longSystem } from '../lib/long-prompt';

interface Timed {
  ttftMs: number;
  totalMs: number;
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
}

async function timed(
  engine: WllamaEngine,
  messages: ChatTurn[],
  maxTokens: number,
): Promise<Timed> {
  const t0 = performance.now();
  let first = 0;
  const result = await engine.complete({
    messages,
    maxTokens,
    temperature: 0,
    onDelta: () => {
      if (first === 0) first = performance.now();
    },
  });
  const end = performance.now();
  return {
    ttftMs: (first || end) - t0,
    totalMs: end - t0,
    promptTokens: result.promptTokens ?? 0,
    completionTokens: result.completionTokens ?? 0,
    cachedTokens: result.cachedTokens ?? 0,
  };
}

export interface CpuRunOptions {
  /** Served path of the GGUF (default the fixture). */
  modelPath?: string;
  /** Length of the cold prompt's system text in characters (default 2,600). */
  promptChars?: number;
  /** Skip the cached-prefix request (the shaped-model runs only need the cold one). */
  coldOnly?: boolean;
}

async function run(threads: number, options: CpuRunOptions = {}) {
  const modelPath = options.modelPath ?? '/models/fixture.gguf';
  const engine = new WllamaEngine(
    { urls: [new URL(modelPath, location.href).href], contextWindow: 4096, threads },
    {
      wasmUrl: new URL('/wllama/wllama.wasm', location.href).href,
      isolated: crossOriginIsolated,
      cores: threads * 2,
    },
  );
  await engine.load(modelPath.replace(/^.*\//, ''));
  const runtime = engine.runtime();
  // Warm-up (first request compiles nothing, but pages in the weights).
  await timed(engine, [{ role: 'user', content: 'Hello.' }], 8);
  const system = longSystem('A', options.promptChars);
  // Cold: a system text the cache has never seen. Decode speed from the same request.
  const cold = await timed(
    engine,
    [
      { role: 'system', content: system },
      { role: 'user', content: 'Hi.' },
    ],
    64,
  );
  // Warm: the same system text and history, one new user message at the end.
  const warm = options.coldOnly
    ? cold
    : await timed(
        engine,
        [
          { role: 'system', content: system },
          { role: 'user', content: 'Hi.' },
          { role: 'user', content: 'And again.' },
        ],
        64,
      );
  await engine.unload();
  const decodeMs = cold.totalMs - cold.ttftMs;
  return {
    threads: runtime.threads,
    isolated: runtime.isolated,
    promptTokens: cold.promptTokens,
    prefillTokensPerSecond: (cold.promptTokens / cold.ttftMs) * 1000,
    decodeTokensPerSecond: ((cold.completionTokens - 1) / decodeMs) * 1000,
    coldTtftMs: cold.ttftMs,
    warmTtftMs: warm.ttftMs,
    warmCachedTokens: warm.cachedTokens,
    warmPromptTokens: warm.promptTokens,
  };
}

Object.assign(window, { benchCpu: run, benchReady: true });
