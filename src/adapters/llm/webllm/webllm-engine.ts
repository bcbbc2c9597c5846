import type { AppConfig, MLCEngine, MLCEngineConfig } from '@mlc-ai/web-llm';
import { AppError } from '../../../core/errors';
import type {
  CompletionRequest,
  CompletionResult,
  LlmEngine,
  LoadProgress,
} from '../../../core/ports/llm-engine';
import type { Tokenizer } from '../../../core/ports/tokenizer';
import { createEstimateTokenizer } from '../../../core/tokens/estimate-tokenizer';
import type { Tokens } from '../../../core/units';
import type { TokenizerSource } from '../../../rpc/llm-api';
import { buildWebLlmRequest } from './build-webllm-request';
import { classifyWebLlmError } from './classify-webllm-error';
import { mapInitProgress } from './map-init-progress';
import { loadCachedTokenizer, tokenizerJsonUrl, WEBLLM_MODEL_CACHE } from './webllm-cache';

const DEFAULT_WINDOW: Tokens = 4096;

/**
 * The web-llm {@link LlmEngine}, run inside the LLM worker (rule E17). web-llm is imported lazily
 * on the first load so the app shell never carries its ~6 MB. Requests go through
 * {@link buildWebLlmRequest}; errors through {@link classifyWebLlmError}; an aborted signal or
 * `interrupt()` calls `interruptGenerate()` and rejects with `cancelled`.
 */
export class WebLlmEngine implements LlmEngine {
  private engine: MLCEngine | null = null;
  private loaded: string | null = null;
  private window: Tokens = DEFAULT_WINDOW;
  private exact: Tokenizer | null = null;
  private appConfig: AppConfig | null = null;

  /**
   * @param appConfigOverride defaults to web-llm's `prebuiltAppConfig`.
   * @param createEngine builds the MLCEngine; tests pass a fake with the same surface.
   */
  constructor(
    private readonly appConfigOverride?: AppConfig,
    private readonly createEngine?: (config: MLCEngineConfig) => MLCEngine,
  ) {}

  get modelId(): string | null {
    return this.loaded;
  }

  async load(modelId: string, onProgress?: (p: LoadProgress) => void): Promise<void> {
    const webllm =
      this.appConfigOverride && this.createEngine ? null : await import('@mlc-ai/web-llm');
    const appConfig = this.appConfigOverride ?? webllm!.prebuiltAppConfig;
    this.appConfig = appConfig;
    const record = appConfig.model_list.find((m) => m.model_id === modelId);
    if (!record) throw new AppError('not_found', `The model ${modelId} is not in the catalog.`);
    onProgress?.({ type: 'checking', text: `Preparing ${modelId}` });
    const callback = (report: Parameters<typeof mapInitProgress>[0]): void =>
      onProgress?.(mapInitProgress(report));
    try {
      if (!this.engine) {
        const config: MLCEngineConfig = { appConfig, initProgressCallback: callback };
        this.engine = this.createEngine ? this.createEngine(config) : new webllm!.MLCEngine(config);
      } else {
        this.engine.setInitProgressCallback(callback);
      }
      await this.engine.reload(modelId);
    } catch (error) {
      this.loaded = null;
      throw classifyWebLlmError(error, 'model_load_failed');
    }
    this.loaded = modelId;
    this.window = record.overrides?.context_window_size ?? DEFAULT_WINDOW;
    this.exact = null;
    onProgress?.({ type: 'ready', modelId });
  }

  async unload(): Promise<void> {
    await this.engine?.unload();
    this.loaded = null;
    this.exact = null;
  }

  contextWindow(): Tokens {
    return this.window;
  }

  async tokenizer(): Promise<Tokenizer> {
    if (this.exact) return this.exact;
    const record = this.appConfig?.model_list.find((m) => m.model_id === this.loaded);
    if (!record || !this.loaded) return createEstimateTokenizer();
    this.exact = await loadCachedTokenizer(
      this.loaded,
      WEBLLM_MODEL_CACHE,
      tokenizerJsonUrl(record.model),
    );
    return this.exact ?? createEstimateTokenizer();
  }

  /** Where the main thread finds this model's tokenizer.json (web-llm cached it during load). */
  tokenizerSource(): TokenizerSource {
    const record = this.appConfig?.model_list.find((m) => m.model_id === this.loaded);
    if (!record) return { type: 'llama3' };
    return {
      type: 'tokenizer_json',
      cacheName: WEBLLM_MODEL_CACHE,
      url: tokenizerJsonUrl(record.model),
    };
  }

  async interrupt(): Promise<void> {
    await this.engine?.interruptGenerate();
  }

  async complete(request: CompletionRequest): Promise<CompletionResult> {
    const engine = this.engine;
    const modelId = this.loaded;
    if (!engine || !modelId) throw new AppError('model_not_loaded', 'No chat model is loaded.');
    if (request.signal?.aborted) throw new AppError('cancelled', 'The generation was stopped.');
    const onAbort = (): void => void engine.interruptGenerate();
    request.signal?.addEventListener('abort', onAbort, { once: true });
    let text = '';
    let finish: string | null = null;
    let promptTokens: Tokens | undefined;
    let completionTokens: Tokens | undefined;
    try {
      const chunks = await engine.chat.completions.create(buildWebLlmRequest(request, modelId));
      for await (const chunk of chunks) {
        const choice = chunk.choices[0];
        const delta = choice?.delta?.content ?? '';
        if (delta) {
          text += delta;
          request.onDelta?.(delta);
        }
        if (choice?.finish_reason) finish = choice.finish_reason;
        if (chunk.usage) {
          promptTokens = chunk.usage.prompt_tokens;
          completionTokens = chunk.usage.completion_tokens;
        }
      }
    } catch (error) {
      if (request.signal?.aborted) throw new AppError('cancelled', 'The generation was stopped.');
      throw classifyWebLlmError(error);
    } finally {
      request.signal?.removeEventListener('abort', onAbort);
    }
    if (request.signal?.aborted) throw new AppError('cancelled', 'The generation was stopped.');
    const finishReason = finish === 'length' ? 'length' : finish === 'abort' ? 'abort' : 'stop';
    return {
      text,
      finishReason,
      ...(promptTokens !== undefined ? { promptTokens } : {}),
      ...(completionTokens !== undefined ? { completionTokens } : {}),
    };
  }
}
