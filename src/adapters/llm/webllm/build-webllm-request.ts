import type { ChatCompletionRequestStreaming } from '@mlc-ai/web-llm';
import type { CompletionRequest } from '../../../core/ports/llm-engine';

/**
 * The web-llm request for a completion (rule E14): always streaming with usage in the last chunk,
 * `max_tokens` from the request, and — when a JSON schema is given — web-llm's grammar mode with
 * the schema as a **string** (web-llm rejects an object). Qwen3's thinking is switched off: the
 * agent's steps are JSON and the window is too small for hidden reasoning. Pure and type-only
 * on web-llm, so Node tests check it against web-llm's own validation.
 */
export function buildWebLlmRequest(
  request: CompletionRequest,
  modelId: string,
): ChatCompletionRequestStreaming {
  const built: ChatCompletionRequestStreaming = {
    messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
    max_tokens: request.maxTokens,
    stream: true,
    stream_options: { include_usage: true },
  };
  // Sampling only as asked (E27, E53): web-llm 0.2.86 does not compare it when reusing the cache.
  if (request.temperature !== undefined) built.temperature = request.temperature;
  if (request.topP !== undefined) built.top_p = request.topP;
  if (request.jsonSchema) {
    built.response_format = { type: 'json_object', schema: JSON.stringify(request.jsonSchema) };
  }
  if (/^Qwen3-/i.test(modelId)) built.extra_body = { enable_thinking: false };
  return built;
}
