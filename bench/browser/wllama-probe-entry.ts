/**
 * Runs in Chromium: wllama on a given GGUF with given load settings, one ~1,000-token prompt read
 * cold, then 32 tokens decoded. Reports llama.cpp's own timings (prompt and predicted tokens/s)
 * beside the wall clock seen by the page, so the engine's compute and the path around it can be
 * told apart (issue 36).
 */
import { LogLevel, Wllama } from '@wllama/wllama';
import { VALID_TEXT_GBNF } from '../../src/adapters/llm/wllama/json-schema-gbnf';
import { longSystem } from '../lib/long-prompt';

export interface ProbeSettings {
  modelUrl: string;
  threads: number;
  nBatch?: number;
  nUbatch?: number;
  flashAttn?: boolean;
  /** `text`: the engine's grammar for free text (valid UTF-8, no C1). */
  grammar?: 'text';
  /** Characters of the cold prompt (default 2,600: ~1,075 fixture tokens). */
  promptChars?: number;
}

interface Chunk {
  timings?: Record<string, number>;
  usage?: Record<string, number>;
}

async function probe(settings: ProbeSettings) {
  const wllama = new Wllama(
    { default: new URL('/wllama/wllama.wasm', location.href).href },
    { suppressNativeLog: false, allowOffline: true },
  );
  wllama.setCompat(null);
  const started = performance.now();
  const response = await fetch(settings.modelUrl);
  const blob = await response.blob();
  await wllama.loadModel([new File([blob], 'model.gguf')], {
    n_ctx: 4096,
    n_threads: settings.threads,
    n_gpu_layers: 0,
    n_parallel: 1,
    skip_chat_parsing: true,
    log_level: LogLevel.ERROR,
    ...(settings.nBatch ? { n_batch: settings.nBatch } : {}),
    ...(settings.nUbatch ? { n_ubatch: settings.nUbatch } : {}),
    ...(settings.flashAttn !== undefined ? { flash_attn: settings.flashAttn ? 'on' : 'off' } : {}),
  } as Parameters<Wllama['loadModel']>[1]);
  const loadMs = performance.now() - started;
  const run = async (content: string, maxTokens: number) => {
    const t0 = performance.now();
    let first = 0;
    const seen: { last?: Chunk } = {};
    await wllama.createChatCompletion({
      messages: [
        { role: 'system', content },
        { role: 'user', content: 'Hi.' },
      ],
      max_tokens: maxTokens,
      temperature: 0,
      ...(settings.grammar === 'text' ? { grammar: VALID_TEXT_GBNF } : {}),
      stream: true,
      stream_options: { include_usage: true },
      onData: (chunk: Chunk) => {
        if (first === 0) first = performance.now();
        seen.last = chunk;
      },
    } as unknown as Parameters<Wllama['createChatCompletion']>[0]);
    const end = performance.now();
    return { ttftMs: first - t0, totalMs: end - t0, last: seen.last };
  };
  await run('Hello.', 4);
  const cold = await run(longSystem('A', settings.promptChars), 32);
  const threads = wllama.getNumThreads?.() ?? null;
  const multi = wllama.isMultithread();
  await wllama.exit();
  const t = cold.last?.timings ?? {};
  return {
    settings: { ...settings, modelUrl: undefined },
    isolated: crossOriginIsolated,
    threads,
    multi,
    loadMs,
    promptTokens: cold.last?.usage?.prompt_tokens,
    wallTtftMs: cold.ttftMs,
    wallPrefillTps: ((cold.last?.usage?.prompt_tokens ?? 0) / cold.ttftMs) * 1000,
    engine: t,
  };
}

Object.assign(window, { probe, benchReady: true });
