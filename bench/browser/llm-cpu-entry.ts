/**
 * Runs in Chromium: the app's own CPU engine (WllamaEngine, the adapter the LLM worker hosts) on
 * the fixture GGUF. Prefill and decode speed at a given thread count, and time to first token for
 * a ~1,000-token prompt read cold and with its prefix already in llama.cpp's cache.
 */
import { WllamaEngine } from '../../src/adapters/llm/wllama/wllama-engine';
import type { ChatTurn } from '../../src/core/ports/llm-engine';

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

/** ~1,000 tokens of the fixture's vocabulary: prompt-like English in numbered lines. */
function longSystem(seed: string): string {
  const lines: string[] = [`${seed}: You are Loci, a private companion with memory.`];
  for (let i = 0; lines.join('\n').length < 2600; i += 1) {
    lines.push(`- Memory ${i}: the user has a sister who lives in Lisbon and likes green tea.`);
  }
  return lines.join('\n');
}

async function run(threads: number) {
  const engine = new WllamaEngine(
    { urls: [new URL('/models/fixture.gguf', location.href).href], contextWindow: 4096, threads },
    {
      wasmUrl: new URL('/wllama/wllama.wasm', location.href).href,
      isolated: crossOriginIsolated,
      cores: threads * 2,
    },
  );
  await engine.load('loci-fixture-llama');
  const runtime = engine.runtime();
  // Warm-up (first request compiles nothing, but pages in the weights).
  await timed(engine, [{ role: 'user', content: 'Hello.' }], 8);
  const system = longSystem('A');
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
  const warm = await timed(
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
