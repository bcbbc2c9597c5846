import type { Wllama } from '@wllama/wllama';
import type { ChatCompletionChunk } from '@wllama/wllama';
import { AppError, type ErrorCode } from '../../../core/errors';
import type {
  CompletionRequest,
  CompletionResult,
  LlmEngine,
  LoadProgress,
} from '../../../core/ports/llm-engine';
import type { Tokenizer } from '../../../core/ports/tokenizer';
import { createEstimateTokenizer } from '../../../core/tokens/estimate-tokenizer';
import type { Tokens } from '../../../core/units';
import type { CpuRuntime, GgufSource, GgufVocab, TokenizerSource } from '../../../rpc/llm-api';
import { createGgufTokenizer } from './gguf-tokenizer';
import { readGgufVocab } from './gguf-vocab';
import { invalidUtf8Tokens } from './invalid-utf8-tokens';
import { jsonSchemaToGbnf, VALID_TEXT_GBNF } from './json-schema-gbnf';

/** Where the app serves wllama's wasm (copied from the package at build time, rule E41). */
export const WLLAMA_WASM_PATH = 'wllama/wllama.wasm';

export interface WllamaEngineOptions {
  /** Absolute URL of `wllama.wasm`. */
  wasmUrl: string;
  /** Cross-origin isolated (SharedArrayBuffer works): more than one thread is possible. */
  isolated: boolean;
  /** Logical cores (`navigator.hardwareConcurrency`). */
  cores: number;
}

/** Threads for llama.cpp: half the cores (at most 8) when isolated, else one (rule E42). */
export function threadsFor(isolated: boolean, cores: number, wanted?: number): number {
  if (!isolated) return 1;
  return Math.max(1, Math.min(8, wanted ?? Math.floor(cores / 2)));
}

const quiet = { debug: () => {}, log: () => {}, warn: console.warn, error: console.error };

/**
 * The CPU {@link LlmEngine}: llama.cpp in WebAssembly through wllama, hosted in the LLM worker
 * (rule E42, ADR 0111). The model comes from its GGUF URL(s) through wllama's download cache (the
 * app's own `/models/` in the e2e build); each step's JSON schema becomes a GBNF grammar; the
 * context window is the `n_ctx` it was loaded with; token counts come from the GGUF vocabulary.
 * Requests are plain chat completions on one slot, so llama.cpp's prompt cache reuses the longest
 * common prefix with the previous request (nothing resets the context between requests).
 */
export class WllamaEngine implements LlmEngine {
  private wllama: Wllama | null = null;
  private loaded: string | null = null;
  private vocab: GgufVocab | null = null;
  private exact: Tokenizer | null = null;
  private generation: AbortController | null = null;
  private threads = 1;
  private banned: [number, false][] = [];

  constructor(
    private readonly source: GgufSource,
    private readonly options: WllamaEngineOptions,
  ) {}

  get modelId(): string | null {
    return this.loaded;
  }

  async load(modelId: string, onProgress?: (p: LoadProgress) => void): Promise<void> {
    await this.unload();
    onProgress?.({ type: 'checking', text: `Preparing ${modelId}` });
    const { Wllama } = await import('@wllama/wllama');
    const wllama = new Wllama(
      { default: this.options.wasmUrl },
      { suppressNativeLog: true, logger: quiet, allowOffline: true },
    );
    // Never the CDN "compat" build (Safari without JSPI): one self-hosted wasm for everyone.
    wllama.setCompat(null);
    try {
      const model = await wllama.modelManager.getModelOrDownload(
        { url: this.source.urls[0] ?? '' },
        {
          progressCallback: ({ loaded, total }) =>
            onProgress?.({
              type: 'downloading',
              fraction: total > 0 ? loaded / total : 0,
              loadedBytes: loaded,
              totalBytes: total,
              text: `Downloading ${modelId}`,
            }),
        },
      );
      onProgress?.({ type: 'compiling', fraction: 0, text: 'Loading the model into memory' });
      const blobs = await model.open();
      const first = blobs[0];
      if (!first) throw new AppError('model_load_failed', 'The model has no files.');
      this.vocab = await readGgufVocab(first);
      this.banned = invalidUtf8Tokens(this.vocab).map((id) => [id, false]);
      this.threads = threadsFor(this.options.isolated, this.options.cores, this.source.threads);
      await wllama.loadModel(blobs, {
        n_ctx: this.source.contextWindow,
        n_threads: this.threads,
        n_gpu_layers: 0,
        n_parallel: 1,
        skip_chat_parsing: true,
      });
    } catch (error) {
      await wllama.exit().catch(() => undefined); // the load already failed; that error wins
      throw classifyWllamaError(error, 'model_load_failed');
    }
    this.wllama = wllama;
    this.loaded = modelId;
    this.exact = null;
    onProgress?.({ type: 'ready', modelId });
  }

  async unload(): Promise<void> {
    this.generation?.abort();
    const wllama = this.wllama;
    this.wllama = null;
    this.loaded = null;
    this.exact = null;
    await wllama?.exit();
  }

  contextWindow(): Tokens {
    return this.source.contextWindow;
  }

  /** What the main thread needs to count exactly: the GGUF vocabulary, once loaded. */
  tokenizerSource(): TokenizerSource {
    return this.vocab ? { type: 'gguf_vocab', vocab: this.vocab } : { type: 'estimate' };
  }

  runtime(): CpuRuntime {
    return { engine: 'wllama', threads: this.threads, isolated: this.options.isolated };
  }

  async tokenizer(): Promise<Tokenizer> {
    if (!this.exact && this.vocab && this.loaded) {
      this.exact = createGgufTokenizer(this.loaded, this.vocab);
    }
    return this.exact ?? createEstimateTokenizer();
  }

  async interrupt(): Promise<void> {
    this.generation?.abort();
  }

  async complete(request: CompletionRequest): Promise<CompletionResult> {
    const wllama = this.wllama;
    if (!wllama || !this.loaded) throw new AppError('model_not_loaded', 'No chat model is loaded.');
    if (request.signal?.aborted) throw new AppError('cancelled', 'The generation was stopped.');
    const controller = new AbortController();
    this.generation = controller;
    const onAbort = (): void => controller.abort();
    request.signal?.addEventListener('abort', onAbort, { once: true });
    let text = '';
    let finish: string | null = null;
    let last: ChatCompletionChunk | null = null;
    try {
      await wllama.createChatCompletion({
        messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
        max_tokens: request.maxTokens,
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        grammar: request.jsonSchema ? jsonSchemaToGbnf(request.jsonSchema) : VALID_TEXT_GBNF,
        ...(this.banned.length > 0 ? { logit_bias: this.banned } : {}),
        stream: true,
        // The last chunk then carries usage and timings (prompt tokens, cache reuse).
        stream_options: { include_usage: true },
        abortSignal: controller.signal,
        onData: (chunk: ChatCompletionChunk) => {
          last = chunk;
          const choice = chunk.choices[0];
          const delta = choice?.delta?.content ?? '';
          if (delta) {
            text += delta;
            request.onDelta?.(delta);
          }
          if (choice?.finish_reason) finish = choice.finish_reason;
        },
      } as Parameters<Wllama['createChatCompletion']>[0] & { stream: true });
    } catch (error) {
      if (controller.signal.aborted) throw new AppError('cancelled', 'The generation was stopped.');
      throw classifyWllamaError(error, 'internal');
    } finally {
      request.signal?.removeEventListener('abort', onAbort);
      if (this.generation === controller) this.generation = null;
    }
    if (controller.signal.aborted) throw new AppError('cancelled', 'The generation was stopped.');
    const final = last as ChatCompletionChunk | null;
    const usage = final?.usage;
    const timings = final?.timings;
    return {
      text,
      finishReason: finish === 'length' ? 'length' : 'stop',
      ...(usage
        ? { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens }
        : {}),
      ...(timings ? { cachedTokens: timings.cache_n } : {}),
    };
  }
}

/** wllama's errors as AppErrors (rule E45): an abort is `cancelled`, a full KV cache overflows. */
export function classifyWllamaError(error: unknown, fallback: ErrorCode): AppError {
  if (error instanceof AppError) return error;
  const name = error instanceof Error ? error.name : '';
  const type = (error as { type?: string } | null)?.type;
  const message = error instanceof Error ? error.message : String(error);
  if (name === 'AbortError') return new AppError('cancelled', 'The generation was stopped.');
  if (
    type === 'kv_cache_full' ||
    (/context|kv cache/i.test(message) && /full|exceed/i.test(message))
  ) {
    return new AppError('context_window_exceeded', 'The prompt does not fit the model window.', {
      raw: message,
    });
  }
  if (type === 'download_error' || /Failed to fetch|NetworkError/i.test(message)) {
    return new AppError(
      'network_unavailable',
      'The model could not be downloaded: the network is unavailable.',
      { raw: message },
    );
  }
  if (/quota/i.test(message)) {
    return new AppError('storage_quota_exceeded', 'There is not enough storage for the model.', {
      raw: message,
    });
  }
  return new AppError(fallback, `The CPU engine failed: ${message}`, { raw: message });
}
