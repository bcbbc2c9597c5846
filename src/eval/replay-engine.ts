/**
 * The engine of a replay where no model runs (V28, V13): every request is answered by the
 * replay's own rule — the dataset's reply as a `send_message` step, nothing for a summary
 * request. It is what the in-app memory check runs on: the tests' scripted engine stays out of
 * the production build (ADR 0025), and this one streams nothing, waits for nothing and checks no
 * schema, because its answers are built to fit. A prompt past the window fails as a real
 * engine's would (`context_window_exceeded`); an aborted request rejects with `cancelled`.
 */
import { AppError } from '../core/errors';
import type { CompletionRequest, CompletionResult, LlmEngine } from '../core/ports/llm-engine';
import type { Tokenizer } from '../core/ports/tokenizer';
import type { Tokens } from '../core/units';

export function createReplayEngine(options: {
  window: Tokens;
  tokenizer: Tokenizer;
  answer: (request: CompletionRequest) => string;
}): LlmEngine {
  const { window, tokenizer, answer } = options;
  return {
    modelId: 'replay',
    async load() {},
    async unload() {},
    async interrupt() {},
    contextWindow: () => window,
    tokenizer: async () => tokenizer,
    async complete(request: CompletionRequest): Promise<CompletionResult> {
      if (request.signal?.aborted) throw new AppError('cancelled', 'The generation was stopped.');
      const promptTokens = request.messages.reduce(
        (sum, m) => sum + tokenizer.countMessage(m.role, m.content),
        0,
      );
      if (promptTokens > window) {
        throw new AppError(
          'context_window_exceeded',
          `The prompt has ${promptTokens} tokens; the window is ${window}.`,
          { promptTokens, contextWindow: window },
        );
      }
      const text = answer(request);
      if (text !== '') request.onDelta?.(text);
      return { text, finishReason: 'stop', promptTokens, completionTokens: tokenizer.count(text) };
    },
  };
}
