/**
 * Native llama.cpp (node-llama-cpp 3.21.1, CPU) on a GGUF: prefill tokens/s of one prompt read
 * cold and decode tokens/s over the tokens after it, greedy. The machine's limit for the same
 * model, against which the in-browser engine is measured.
 */
import { getLlama } from 'node-llama-cpp';

export interface NativeRun {
  promptTokens: number;
  prefillTokensPerSecond: number;
  decodeTokensPerSecond: number;
  ttftMs: number;
}

export async function measureNative(
  modelPath: string,
  threads: number,
  prompt: string,
  decodeTokens = 32,
): Promise<NativeRun> {
  const llama = await getLlama({ gpu: false, build: 'never', progressLogs: false });
  const model = await llama.loadModel({ modelPath });
  try {
    const context = await model.createContext({ contextSize: 4096, threads });
    const sequence = context.getSequence();
    // Warm-up: pages the weights in, as the page's warm-up request does.
    const warm = sequence.evaluate(model.tokenize('Hello.'), { temperature: 0 });
    await warm.next();
    await warm.return?.();
    await sequence.clearHistory();
    const tokens = model.tokenize(prompt);
    const t0 = performance.now();
    const steps = sequence.evaluate(tokens, { temperature: 0 });
    await steps.next();
    const ttftMs = performance.now() - t0;
    const t1 = performance.now();
    let decoded = 0;
    for (; decoded < decodeTokens; decoded += 1) if ((await steps.next()).done) break;
    const decodeMs = performance.now() - t1;
    await steps.return?.();
    await context.dispose();
    return {
      promptTokens: tokens.length,
      prefillTokensPerSecond: (tokens.length / ttftMs) * 1000,
      decodeTokensPerSecond: (decoded / decodeMs) * 1000,
      ttftMs,
    };
  } finally {
    await model.dispose();
  }
}
