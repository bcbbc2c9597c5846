/**
 * Runs in Chromium: the app's endpoint engine (EndpointEngine, what the LLM worker hosts for a
 * model server) against the llama.cpp test server, and the app's CPU engine (WllamaEngine) on the
 * same fixture GGUF in this page, with the same ~1,000-token prompt and 64 new tokens each.
 */
import { EndpointEngine } from '../../src/adapters/llm/openai-endpoint/endpoint-engine';
import { LOOPBACK_SOURCES } from '../../src/adapters/llm/openai-endpoint/server-sources';
import { WllamaEngine } from '../../src/adapters/llm/wllama/wllama-engine';
import type { ChatTurn, LlmEngine } from '../../src/core/ports/llm-engine';
import { longSystem } from '../lib/long-prompt';

interface Timed {
  ttftMs: number;
  totalMs: number;
  promptTokens: number;
  completionTokens: number;
}

async function timed(engine: LlmEngine, messages: ChatTurn[], maxTokens: number): Promise<Timed> {
  const t0 = performance.now();
  let first = 0;
  let pieces = 0;
  const result = await engine.complete({
    messages,
    maxTokens,
    temperature: 0,
    onDelta: () => {
      pieces += 1;
      if (first === 0) first = performance.now();
    },
  });
  const end = performance.now();
  return {
    ttftMs: (first || end) - t0,
    totalMs: end - t0,
    promptTokens: result.promptTokens ?? 0,
    completionTokens: result.completionTokens ?? pieces,
  };
}

async function measure(engine: LlmEngine, seed: string) {
  await timed(engine, [{ role: 'user', content: 'Hello.' }], 8);
  const cold = await timed(
    engine,
    [
      { role: 'system', content: longSystem(seed) },
      { role: 'user', content: 'Hi.' },
    ],
    64,
  );
  return {
    ttftMs: cold.ttftMs,
    promptTokens: cold.promptTokens,
    completionTokens: cold.completionTokens,
    decodeTokensPerSecond: ((cold.completionTokens - 1) / (cold.totalMs - cold.ttftMs)) * 1000,
  };
}

async function run(serverBase: string) {
  const endpoint = new EndpointEngine(
    { baseUrl: serverBase },
    {
      fetch: (i, init) => fetch(i, init),
      pageProtocol: location.protocol,
      allowedSources: LOOPBACK_SOURCES,
    },
  );
  await endpoint.load('loci-fixture-llama');
  const viaServer = await measure(endpoint, 'A');
  await endpoint.unload();
  const cpu = new WllamaEngine(
    {
      urls: [new URL('/models/fixture.gguf', location.href).href],
      contextWindow: 4096,
      threads: 1,
    },
    { wasmUrl: new URL('/wllama/wllama.wasm', location.href).href, isolated: false, cores: 2 },
  );
  await cpu.load('loci-fixture-llama');
  // A different seed word, so neither engine's cache could have seen the prompt.
  const inBrowser = await measure(cpu, 'B');
  await cpu.unload();
  return { viaServer, inBrowser };
}

Object.assign(window, { benchEndpoint: run, benchReady: true });
