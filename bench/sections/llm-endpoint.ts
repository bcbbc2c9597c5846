/**
 * Your own model server vs the in-browser CPU engine, same fixture GGUF, same run (issue 16):
 * the app's EndpointEngine in Chromium streaming from the llama.cpp test server
 * (tests/servers/llama-server.mjs: node-llama-cpp, 1 thread, CPU) against the app's WllamaEngine
 * (llama.cpp in WebAssembly, 1 thread, not isolated) in the same page. Time to first token of a
 * ~1,000-token prompt read cold, and decode tokens/s over 64 tokens at temperature 0. Both run on
 * this machine's CPU, so the ratio is native llama.cpp + HTTP/SSE vs llama.cpp in wasm — a real
 * server's GPU is not measured.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withFixturePage } from '../browser/fixture-page';
import type { BenchFigure, BenchSection } from '../types';
import { startLlamaServer } from '../../tests/servers/llama-server.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

interface Side {
  ttftMs: number;
  promptTokens: number;
  completionTokens: number;
  decodeTokensPerSecond: number;
}

export const run: BenchSection = async () => {
  const server = (await startLlamaServer({ contextSize: 4096, threads: 1 })) as {
    url: string;
    close(): Promise<void>;
  };
  try {
    const { viaServer, inBrowser } = await withFixturePage(
      path.join(here, '../browser/llm-endpoint-entry.ts'),
      (page) =>
        page.evaluate(
          (base) =>
            (
              window as unknown as {
                benchEndpoint(base: string): Promise<{ viaServer: Side; inBrowser: Side }>;
              }
            ).benchEndpoint(base),
          `${server.url}/v1`,
        ),
    );
    const figures: BenchFigure[] = [
      {
        id: 'llm_endpoint.fixture.ttft_ms',
        label: 'Time to first token, ~1,000-token prompt, model server (llama.cpp, 1 thread)',
        unit: 'ms',
        value: viaServer.ttftMs,
        baseline: { label: 'in-browser CPU engine (wllama, 1 thread)', value: inBrowser.ttftMs },
        ratio: inBrowser.ttftMs / viaServer.ttftMs,
        notes: `${viaServer.promptTokens} prompt tokens via the server, ${inBrowser.promptTokens} in the browser; cold (nothing cached)`,
      },
      {
        id: 'llm_endpoint.fixture.decode_tps',
        label: 'Decode tokens/s, model server (streamed over SSE) vs in-browser CPU engine',
        unit: 'tokens/s',
        value: viaServer.decodeTokensPerSecond,
        baseline: {
          label: 'in-browser CPU engine (wllama, 1 thread)',
          value: inBrowser.decodeTokensPerSecond,
        },
        ratio: viaServer.decodeTokensPerSecond / inBrowser.decodeTokensPerSecond,
        notes: `${viaServer.completionTokens} vs ${inBrowser.completionTokens} tokens, temperature 0, no grammar`,
      },
    ];
    return figures;
  } finally {
    await server.close();
  }
};
