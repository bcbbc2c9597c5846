/**
 * The host of the live replay (V28) for the CLI and the tests: every world is held in memory
 * ({@link memoryWorlds}); the engine is the scripted engine of the tests and the e2e build.
 */
import { ScriptedEngine } from '../adapters/llm/scripted/scripted-engine';
import { createLlama3ChatTokens } from '../adapters/tokenizer/llama3-chat-tokens';
import type { LiveReplayDeps } from '../eval/live-replay';
import type { Embedder } from '../core/ports/embedder';
import type { Tokenizer } from '../core/ports/tokenizer';
import type { EpochMs } from '../core/units';
import { CounterIds } from './counter-ids';
import { memoryWorlds } from './memory-worlds';

export function liveReplayDeps(
  embedder: Embedder | null,
  tokenizer: Tokenizer,
  now: () => EpochMs,
  options: { prefixCache?: boolean } = {},
): LiveReplayDeps {
  return {
    ...memoryWorlds(embedder, now),
    createEngine: (window, answer) =>
      new ScriptedEngine({
        rule: answer,
        contextWindow: window,
        tokenizer,
        // One delta per reply: the replay needs the text, not the streaming.
        chunkChars: 1_000_000,
        prefixCache: options.prefixCache ?? false,
      }),
    tokenizer,
    chatTokens: createLlama3ChatTokens(),
    ids: new CounterIds(),
  };
}
