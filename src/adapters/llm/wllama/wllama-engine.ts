import type { Wllama } from '@wllama/wllama';
import type { ChatCompletionChunk } from '@wllama/wllama';
import { cpuThreads } from '../../../core/catalog/build-cpu-catalog';
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

/** Threads for llama.cpp: the catalog's rule (E42, ADR 0210), so the Models screen says what runs. */
export function threadsFor(isolated: boolean, cores: number, wanted?: number): number {
  return cpuThreads({ isolated, cores, memoryGB: null }, wanted);
}

/**
 * wllama's JS reads the length of a result from the first four bytes of the request buffer,
 * which the wasm writes only when the action succeeds. When the C++ side throws, those bytes
 * are still the request's magic `GLUE` (0x45554c47) and the JS fails with this message instead
 * of the C++ one (ADR 0116).
 */
const NATIVE_EXCEPTION = /Invalid typed array length: 1163217991\b/;
/** nlohmann::json refusing to serialize text that is not UTF-8 (its type_error 316). */
const NATIVE_INVALID_UTF8 = /json\.exception\.type_error\.316|invalid UTF-8 byte/;

/** Requests a step may take when the model keeps writing text that is not UTF-8 (ADR 0116). */
const UTF8_ATTEMPTS = 3;
/** The temperature of a retry whose request asked for greedy decoding. */
const RETRY_TEMPERATURE = 0.3;

/**
 * wllama's sampling fields for one attempt (E53): the request's temperature and top-p as
 * asked; a retry after a UTF-8 fault of a greedy request samples at {@link RETRY_TEMPERATURE},
 * since greedy decoding would write the same bytes again (ADR 0116).
 */
export function wllamaSampling(
  request: Pick<CompletionRequest, 'temperature' | 'topP'>,
  attempt: number,
): { temperature?: number; top_p?: number } {
  const temperature =
    attempt > 1 && request.temperature === 0 ? RETRY_TEMPERATURE : request.temperature;
  return {
    ...(temperature !== undefined ? { temperature } : {}),
    ...(request.topP !== undefined ? { top_p: request.topP } : {}),
  };
}

/** The native error lines wllama logs, kept so a failure can name its real cause. */
class NativeErrorLog {
  private lines: string[] = [];

  readonly logger = {
    debug: () => {},
    log: () => {},
    warn: console.warn,
    error: (...args: unknown[]) => {
      const line = args.map((a) => (a instanceof Error ? a.message : String(a))).join(' ');
      this.lines.push(line.slice(0, 500));
      if (this.lines.length > 8) this.lines.shift();
      console.error(...args);
    },
  };

  /** The lines logged since the last call. */
  take(): string[] {
    const lines = this.lines;
    this.lines = [];
    return lines;
  }
}

/**
 * What a failed wllama call means: `invalid_utf8` when the model's text was not UTF-8 (the
 * request's output is unusable, the engine is fine), `native` with the C++ message for another
 * C++ exception, or null when it is not a native fault.
 */
export function nativeFault(
  error: unknown,
  nativeLines: readonly string[],
): { kind: 'invalid_utf8' | 'native'; message: string } | null {
  const message = error instanceof Error ? error.message : String(error);
  if (!NATIVE_EXCEPTION.test(message)) return null;
  const cause = [...nativeLines]
    .reverse()
    .find((l) => !NATIVE_EXCEPTION.test(l) && !/^Stack trace/.test(l));
  if (cause && NATIVE_INVALID_UTF8.test(cause)) return { kind: 'invalid_utf8', message: cause };
  return { kind: 'native', message: cause ?? 'an exception inside llama.cpp' };
}

/**
 * The CPU {@link LlmEngine}: llama.cpp in WebAssembly through wllama, hosted in the LLM worker
 * (rule E42, ADR 0111). The model comes from its GGUF URL(s) through wllama's download cache (the
 * app's own `/models/` in the e2e build); each step's JSON schema becomes a GBNF grammar; the
 * context window is the `n_ctx` it was loaded with; token counts come from the GGUF vocabulary.
 * Requests are plain chat completions on one slot, so llama.cpp's prompt cache reuses the longest
 * common prefix with the previous request (nothing resets the context between requests).
 */
export class WllamaEngine implements LlmEngine {
  /** llama.cpp keeps the longest common token prefix of consecutive requests (C26). */
  readonly prefixCache = true;
  private wllama: Wllama | null = null;
  private loaded: string | null = null;
  private vocab: GgufVocab | null = null;
  private exact: Tokenizer | null = null;
  private generation: AbortController | null = null;
  private threads = 1;
  private banned: [number, false][] = [];
  private readonly native = new NativeErrorLog();

  constructor(
    private readonly source: GgufSource,
    private readonly options: WllamaEngineOptions,
  ) {}

  get modelId(): string | null {
    return this.loaded;
  }

  /**
   * The wasm: wllama's own worker fetches it, so it is not in the LLM worker's resource timeline,
   * yet a model cannot load offline without it (P30).
   */
  fetchedElsewhere(): string[] {
    return [this.options.wasmUrl];
  }

  async load(modelId: string, onProgress?: (p: LoadProgress) => void): Promise<void> {
    await this.unload();
    onProgress?.({ type: 'checking', text: `Preparing ${modelId}` });
    const { Wllama, LogLevel } = await import('@wllama/wllama');
    const wllama = new Wllama(
      { default: this.options.wasmUrl },
      // Native errors come through (at error level only) so a failure can say what happened.
      { suppressNativeLog: false, logger: this.native.logger, allowOffline: true },
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
        log_level: LogLevel.ERROR,
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
      for (let attempt = 1; ; attempt += 1) {
        text = '';
        finish = null;
        last = null;
        this.native.take();
        try {
          await this.stream(wllama, request, controller.signal, attempt, (chunk) => {
            last = chunk;
            const choice = chunk.choices[0];
            const delta = choice?.delta?.content ?? '';
            if (delta) {
              text += delta;
              request.onDelta?.(delta);
            }
            if (choice?.finish_reason) finish = choice.finish_reason;
          });
          break;
        } catch (error) {
          if (controller.signal.aborted) {
            throw new AppError('cancelled', 'The generation was stopped.');
          }
          const fault = nativeFault(error, this.native.take());
          if (fault?.kind === 'invalid_utf8') {
            // The model wrote bytes that are not UTF-8 (a pair across two tokens that llama.cpp's
            // grammar decodes leniently): this output is lost, the engine is fine. Generate again
            // from the cached prompt; after the last attempt the partial text goes back and the
            // loop refuses it as an invalid step, as for any malformed output (ADR 0116).
            if (attempt < UTF8_ATTEMPTS) {
              request.onRestart?.();
              continue;
            }
            return { text, finishReason: 'stop' };
          }
          if (fault) {
            throw new AppError(
              'internal',
              `The CPU engine failed inside llama.cpp: ${fault.message}`,
              { raw: fault.message },
            );
          }
          throw classifyWllamaError(error, 'internal');
        }
      }
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

  /** One streamed chat completion; a retry after a UTF-8 fault never samples greedily. */
  private async stream(
    wllama: Wllama,
    request: CompletionRequest,
    signal: AbortSignal,
    attempt: number,
    onData: (chunk: ChatCompletionChunk) => void,
  ): Promise<void> {
    await wllama.createChatCompletion({
      messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
      max_tokens: request.maxTokens,
      ...wllamaSampling(request, attempt),
      grammar: request.jsonSchema ? jsonSchemaToGbnf(request.jsonSchema) : VALID_TEXT_GBNF,
      ...(this.banned.length > 0 ? { logit_bias: this.banned } : {}),
      stream: true,
      // The last chunk then carries usage and timings (prompt tokens, cache reuse).
      stream_options: { include_usage: true },
      abortSignal: signal,
      onData,
    } as Parameters<Wllama['createChatCompletion']>[0] & { stream: true });
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
