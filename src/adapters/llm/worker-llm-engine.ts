import type { CatalogModelRecord } from '../../core/catalog/model-record';
import { AppError } from '../../core/errors';
import type {
  CompletionRequest,
  CompletionResult,
  LlmEngine,
  LoadProgress,
} from '../../core/ports/llm-engine';
import type { Tokenizer } from '../../core/ports/tokenizer';
import { createEstimateTokenizer } from '../../core/tokens/estimate-tokenizer';
import type { Tokens } from '../../core/units';
import type {
  CpuRuntime,
  GgufCacheStatus,
  GgufSource,
  LlmApi,
  LlmEngineKind,
  ScriptedConfig,
  TokenizerSource,
} from '../../rpc/llm-api';
import { RpcClient, type RpcConnection } from '../../rpc/rpc-client';
import {
  isServerModel,
  serverModelOf,
  type EndpointSettings,
  type ServerFacts,
} from './openai-endpoint/endpoint-engine';
import type { ConnectionReport } from './openai-endpoint/test-connection';
import { workerConnection } from '../../rpc/worker-connection';

export interface WorkerLlmEngineOptions {
  /** Which engine the worker hosts. `scripted` works only in the e2e build. Default `webllm`. */
  engine?: LlmEngineKind;
  /** The scripted engine's replies (e2e). */
  scripted?: ScriptedConfig;
  /** The GGUF source of a CPU model id; such ids load on wllama whatever `engine` says. */
  cpuSource?: (modelId: string) => GgufSource | undefined;
  /** The user's own model server; `server:` model ids load on it (ADR 0121). */
  endpoint?: () => EndpointSettings | null;
}

/** One finished completion, as the engine reported it (the e2e build and benchmarks read it). */
export interface CompletionReport {
  constrained: boolean;
  messages: number;
  promptTokens?: Tokens;
  cachedTokens?: Tokens;
  finishReason: CompletionResult['finishReason'];
}

/**
 * The main thread's {@link LlmEngine}: every call goes to the LLM worker over the typed RPC
 * (rule E17). Streaming arrives as `delta` events, `signal` cancels the call, a crashed worker
 * rejects what is pending with `worker_crashed` and leaves no model loaded. `cancelLoad()`
 * terminates the worker mid-download; web-llm keeps the shards it already cached, so the next
 * load resumes from there.
 */
export class WorkerLlmEngine implements LlmEngine {
  private loaded: string | null = null;
  private window: Tokens = 4096;
  private source: TokenizerSource | null = null;
  private exact: Tokenizer | null = null;
  private cpu: CpuRuntime | null = null;
  private server: ServerFacts | null = null;
  private readonly reportListeners = new Set<(report: CompletionReport) => void>();

  constructor(
    private readonly rpc: RpcClient<LlmApi>,
    private options: WorkerLlmEngineOptions = {},
  ) {
    rpc.onCrash(() => this.lose());
  }

  private readonly lostListeners = new Set<() => void>();

  private lose(): void {
    this.forget();
    for (const listener of this.lostListeners) listener();
  }

  get modelId(): string | null {
    return this.loaded;
  }

  /** llama.cpp on the CPU and a model server keep a common prefix; web-llm does not (C26). */
  get prefixCache(): boolean {
    return this.loaded !== null && (isServerModel(this.loaded) || this.cpu !== null);
  }

  /**
   * Subscribes to the model being lost: a worker crash, or the GPU device lost mid-generation
   * (the worker is then restarted, since web-llm must reload anyway). Returns the unsubscribe.
   */
  onCrash(listener: () => void): () => void {
    this.lostListeners.add(listener);
    return () => this.lostListeners.delete(listener);
  }

  /** Switches between web-llm and the scripted engine (e2e) for the next load. */
  configure(options: WorkerLlmEngineOptions): void {
    this.options = options;
  }

  async load(modelId: string, onProgress?: (p: LoadProgress) => void): Promise<void> {
    this.forget();
    if (isServerModel(modelId)) {
      const endpoint = this.options.endpoint?.();
      if (!endpoint) {
        throw new AppError(
          'invalid_argument',
          'No model server is set up; add one under Models → Use my own model server.',
        );
      }
      const loaded = await this.rpc.call(
        'load',
        { modelId: serverModelOf(modelId), engine: 'endpoint', endpoint },
        onProgress ? { onEvent: onProgress } : {},
      );
      this.loaded = modelId;
      this.window = loaded.contextWindow;
      this.source = loaded.tokenizer;
      this.server = loaded.server ?? null;
      return;
    }
    const gguf = this.options.cpuSource?.(modelId);
    const loaded = await this.rpc.call(
      'load',
      {
        modelId,
        engine: gguf ? 'wllama' : (this.options.engine ?? 'webllm'),
        ...(gguf ? { gguf } : {}),
        ...(this.options.scripted && !gguf ? { scripted: this.options.scripted } : {}),
      },
      onProgress ? { onEvent: onProgress } : {},
    );
    this.loaded = loaded.modelId;
    this.window = loaded.contextWindow;
    this.source = loaded.tokenizer;
    this.cpu = loaded.runtime ?? null;
  }

  /** How the CPU engine runs (threads, isolation); null for GPU and scripted models. */
  runtime(): CpuRuntime | null {
    return this.cpu;
  }

  /** What the loaded model server said about itself (window source, `/tokenize`); else null. */
  serverFacts(): ServerFacts | null {
    return this.server;
  }

  /** "Test connection": runs in the LLM worker, under the same policy as the chat (E71). */
  testEndpoint(settings: EndpointSettings, model: string | null): Promise<ConnectionReport> {
    return this.rpc.call('endpointTest', { settings, model });
  }

  /** Hears every finished completion (prompt tokens, cache reuse); returns the unsubscribe. */
  onCompletion(listener: (report: CompletionReport) => void): () => void {
    this.reportListeners.add(listener);
    return () => this.reportListeners.delete(listener);
  }

  /** Stops a load in progress by terminating the worker (rule E19). */
  cancelLoad(): void {
    this.forget();
    this.rpc.restart();
  }

  async unload(): Promise<void> {
    await this.rpc.call('unload', null);
    this.forget();
  }

  async complete(request: CompletionRequest): Promise<CompletionResult> {
    if (!this.loaded) throw new AppError('model_not_loaded', 'No chat model is loaded.');
    const { onDelta, onRestart, signal } = request;
    return this.rpc
      .call(
        'complete',
        {
          messages: request.messages,
          maxTokens: request.maxTokens,
          ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
          ...(request.topP !== undefined ? { topP: request.topP } : {}),
          ...(request.jsonSchema ? { jsonSchema: request.jsonSchema } : {}),
          stream: onDelta !== undefined,
        },
        {
          ...(signal ? { signal } : {}),
          ...(onDelta
            ? {
                onEvent: (e: { type: 'delta'; text: string } | { type: 'restart' }) => {
                  if (e.type === 'restart') onRestart?.();
                  else onDelta(e.text);
                },
              }
            : {}),
        },
      )
      .then((result) => {
        const report: CompletionReport = {
          constrained: request.jsonSchema !== undefined,
          messages: request.messages.length,
          finishReason: result.finishReason,
          ...(result.promptTokens !== undefined ? { promptTokens: result.promptTokens } : {}),
          ...(result.cachedTokens !== undefined ? { cachedTokens: result.cachedTokens } : {}),
        };
        for (const listener of this.reportListeners) listener(report);
        return result;
      })
      .catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'device_lost') {
          this.rpc.restart();
          this.lose();
        }
        throw error;
      });
  }

  async interrupt(): Promise<void> {
    await this.rpc.call('interrupt', null);
  }

  /** Queues replies in the worker's scripted engine (e2e build). */
  async pushScripted(...outputs: string[]): Promise<void> {
    await this.rpc.call('scriptedPush', { outputs });
  }

  /** web-llm's prebuilt model list, read in the worker (for the catalog). */
  modelRecords(): Promise<CatalogModelRecord[]> {
    return this.rpc.call('modelList', null);
  }

  cacheHas(modelId: string): Promise<boolean> {
    return this.rpc.call('cacheHas', { modelId });
  }

  cacheDelete(modelId: string): Promise<void> {
    return this.rpc.call('cacheDelete', { modelId });
  }

  cacheBytes(modelId: string): Promise<number> {
    return this.rpc.call('cacheBytes', { modelId });
  }

  /** The CPU engine's download cache for a GGUF model's files. */
  ggufCacheStatus(urls: string[]): Promise<GgufCacheStatus> {
    return this.rpc.call('ggufCacheStatus', { urls });
  }

  ggufCacheDelete(urls: string[]): Promise<void> {
    return this.rpc.call('ggufCacheDelete', { urls });
  }

  /** The URLs the LLM worker and its engine fetched (P30): what offline use may need. */
  fetchedAssets(): Promise<string[]> {
    return this.rpc.call('fetchedAssets', null);
  }

  contextWindow(): Tokens {
    return this.window;
  }

  async tokenizer(): Promise<Tokenizer> {
    if (this.exact) return this.exact;
    const source = this.source;
    if (!this.loaded || !source) return createEstimateTokenizer();
    // Only the scripted engine (tests and the e2e build) reports a llama3 source; the guard keeps
    // the 3 MB vocabulary chunk out of the production bundle.
    if (source.type === 'llama3' && (__LOCI_E2E__ || import.meta.env.MODE === 'test')) {
      const { createLlama3Tokenizer } = await import('../tokenizer/llama3-tokenizer');
      this.exact = createLlama3Tokenizer();
    } else if (source.type === 'gguf_vocab') {
      const { createGgufTokenizer } = await import('./wllama/gguf-tokenizer');
      this.exact = createGgufTokenizer(this.loaded, source.vocab);
    } else if (source.type === 'tokenizer_json') {
      const { loadCachedTokenizer } = await import('./webllm/webllm-cache');
      this.exact = await loadCachedTokenizer(this.loaded, source.cacheName, source.url);
    }
    return this.exact ?? createEstimateTokenizer();
  }

  /** Ends the worker for good. */
  dispose(): void {
    this.forget();
    this.rpc.terminate();
  }

  private forget(): void {
    this.cpu = null;
    this.server = null;
    this.loaded = null;
    this.source = null;
    this.exact = null;
  }
}

/** The LLM worker as an RPC connection factory (a new worker on every restart). */
export function llmWorkerConnection(): () => RpcConnection {
  return workerConnection(
    () => new Worker(new URL('../../workers/llm.worker.ts', import.meta.url), { type: 'module' }),
  );
}

/**
 * What `main.ts` calls: a {@link WorkerLlmEngine} over a fresh LLM worker. The worker starts on
 * the first call; web-llm itself is only fetched by the first `load`.
 */
export function createWorkerLlmEngine(options: WorkerLlmEngineOptions = {}): WorkerLlmEngine {
  return new WorkerLlmEngine(new RpcClient<LlmApi>(llmWorkerConnection()), options);
}
