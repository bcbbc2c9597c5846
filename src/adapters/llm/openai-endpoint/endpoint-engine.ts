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
import {
  SERVER_MODEL_PREFIX,
  type EndpointSettings,
  type ServerFacts,
  type WindowSource,
} from '../../../rpc/endpoint-types';

export type { EndpointSettings, ServerFacts, WindowSource };
export { SERVER_MODEL_PREFIX };
import {
  callServer,
  NO_REDIRECT,
  parseBaseUrl,
  rootOf,
  under,
  type EndpointEnv,
} from './endpoint-http';
import {
  positive,
  readJson,
  readStream,
  readWhole,
  StallWatch,
  type ReplyLimits,
} from './read-completion';
import { DEFAULT_STALL_SECONDS, replyCharCap, streamByteCap } from '../reply-limits';

/** The window used when neither the server nor the user says (every preset serves at least this). */
export const DEFAULT_ENDPOINT_WINDOW: Tokens = 4096;
/**
 * The largest window Loci plans with, whatever a server reports (E83, ADR 0187): 131,072 tokens
 * (128 Ki), the longest window of the open models people serve locally (Llama 3.1–3.3, Qwen 2.5
 * and Qwen 3 with YaRN, Mistral Nemo, Phi-3.5). Planning with less than a server holds is safe
 * (the summary runs earlier); planning with more is what breaks (the summary never runs and the
 * prompt outgrows the server), so a larger or absurd figure (1e12, 1e308) is capped here.
 */
export const MAX_SERVER_WINDOW: Tokens = 131_072;
/**
 * Tokens a chat template adds around each message (role header, end marker: ChatML and Llama 3
 * add about 5) and once for the assistant's header and BOS, counted on top of the server's count
 * of the messages' text (E86).
 */
const TEMPLATE_TOKENS_PER_MESSAGE: Tokens = 8;
const TEMPLATE_TOKENS_PER_PROMPT: Tokens = 8;
const ESTIMATE = createEstimateTokenizer();
/** Longest wait for the optional probes (`/props`, `/api/show`, `/tokenize`) while loading. */
const PROBE_TIMEOUT_MS = 15_000;
/** Ollama's runtime window when the model does not set `num_ctx` (its documented default). */
const OLLAMA_DEFAULT_NUM_CTX = 4096;
/**
 * llama.cpp's grammar parser refuses a repetition of 2,000 or more (`MAX_REPETITION_THRESHOLD`),
 * and its JSON-schema converter writes `maxLength: n` as `char{0,n}`: a schema with
 * `maxLength: 2000` fails to compile on llama.cpp server (and Ollama, which uses it). The schema
 * sent is capped below; the loop still validates against the full one, and a capped string is
 * always valid there.
 */
export const SERVER_MAX_LENGTH = 1999;

/** The step schema as sent to servers: every `maxLength` at most {@link SERVER_MAX_LENGTH}. */
export function serverSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(serverSchema);
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === 'maxLength' && typeof value === 'number'
        ? Math.min(value, SERVER_MAX_LENGTH)
        : serverSchema(value),
    ]),
  );
}

/** The schema name sent with every step (servers need one; LM Studio shows it). */
export const STEP_SCHEMA_NAME = 'loci_step';

interface ModelEntry {
  id?: unknown;
  max_model_len?: unknown;
}

/**
 * The window to plan with (E83): what the server reported, never above
 * {@link MAX_SERVER_WINDOW} nor above the user's own setting, and which of the two capped it.
 */
export function boundWindow(
  reported: Tokens,
  setting: Tokens | undefined,
): { window: Tokens; capped?: 'maximum' | 'setting' } {
  const mine = positive(setting);
  if (mine !== null && mine < reported && mine <= MAX_SERVER_WINDOW) {
    return { window: mine, capped: 'setting' };
  }
  if (reported > MAX_SERVER_WINDOW) return { window: MAX_SERVER_WINDOW, capped: 'maximum' };
  return { window: reported };
}

/**
 * An {@link LlmEngine} over any OpenAI-compatible server (llama.cpp server, Ollama, LM Studio,
 * vLLM): `load` checks the model is listed and reads the window, `complete` streams
 * `/chat/completions` with `response_format: json_schema` for every step. The step is still
 * validated by the turn loop on arrival, so a server that ignores the schema costs invalid-step
 * retries, never memory (ADR 0121).
 */
export class EndpointEngine implements LlmEngine {
  /** llama.cpp server, vLLM and Ollama keep a common prompt prefix between requests (C26). */
  readonly prefixCache = true;
  private loaded: string | null = null;
  private window: Tokens;
  private facts: ServerFacts | null = null;
  private generation: AbortController | null = null;
  private readonly base: URL;

  constructor(
    private readonly settings: EndpointSettings,
    private readonly env: EndpointEnv,
  ) {
    this.base = parseBaseUrl(settings.baseUrl);
    this.window = boundWindow(settings.contextWindow ?? DEFAULT_ENDPOINT_WINDOW, undefined).window;
  }

  /** Milliseconds without a byte before a request is given up (E82). */
  private get stallMs(): number {
    const seconds = this.settings.stallSeconds;
    return (typeof seconds === 'number' && seconds > 0 ? seconds : DEFAULT_STALL_SECONDS) * 1000;
  }

  /** The error for a server that went silent (E82), naming it and the wait. */
  private stalled(): AppError {
    const seconds = this.stallMs / 1000;
    return new AppError(
      'endpoint_stalled',
      `The model server at ${this.base.origin} sent nothing for ${seconds.toLocaleString('en')} seconds, so Loci stopped waiting.`,
      { origin: this.base.origin, seconds },
    );
  }

  get modelId(): string | null {
    return this.loaded;
  }

  /** What `load` learnt about the server (models, window and its source, `/tokenize`). */
  serverFacts(): ServerFacts | null {
    return this.facts;
  }

  private headers(json: boolean): Record<string, string> {
    return {
      ...(json ? { 'Content-Type': 'application/json' } : {}),
      ...(this.settings.apiKey ? { Authorization: `Bearer ${this.settings.apiKey}` } : {}),
    };
  }

  /** `GET /v1/models`: the ids the server offers. */
  async listModels(signal?: AbortSignal): Promise<{ ids: string[]; entries: ModelEntry[] }> {
    const timeout = AbortSignal.timeout(this.stallMs);
    const body = await this.untilStalled(timeout, async () => {
      const response = await callServer(
        {
          url: under(this.base, '/models'),
          init: {
            headers: this.headers(false),
            signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
          },
          base: this.base,
        },
        this.env,
      );
      return (await readJson(response, MODEL_LIST_BYTES)) as { data?: unknown } | null;
    });
    if (!body || !Array.isArray(body.data)) {
      throw new AppError(
        'endpoint_failed',
        `${under(this.base, '/models')} did not answer with a model list; is this an OpenAI-compatible server (the base URL usually ends in /v1)?`,
      );
    }
    const entries = body.data as ModelEntry[];
    return {
      ids: entries.map((e) => e.id).filter((id): id is string => typeof id === 'string'),
      entries,
    };
  }

  async load(modelId: string, onProgress?: (p: LoadProgress) => void): Promise<void> {
    this.loaded = null;
    onProgress?.({ type: 'checking', text: `Asking ${this.base.origin} for its models` });
    const { ids, entries } = await this.listModels();
    if (!ids.includes(modelId)) {
      throw new AppError(
        'endpoint_no_model',
        `The model server has no model “${modelId}” (it lists: ${ids.join(', ') || 'none'}).`,
        { model: modelId },
      );
    }
    const vllm = positive(entries.find((e) => e.id === modelId)?.max_model_len);
    const found = vllm
      ? { window: vllm, source: 'vllm max_model_len' as const }
      : await this.readWindow(modelId);
    const { window: reported, source } = found ?? {
      window: this.settings.contextWindow ?? DEFAULT_ENDPOINT_WINDOW,
      source: this.settings.contextWindow ? ('setting' as const) : ('default' as const),
    };
    const { window, capped } = boundWindow(reported, this.settings.contextWindow);
    this.window = window;
    this.facts = {
      models: ids,
      contextWindow: window,
      windowSource: source,
      ...(capped ? { windowCapped: capped } : {}),
      tokenize: await this.hasTokenize(),
    };
    this.loaded = modelId;
    onProgress?.({ type: 'ready', modelId });
  }

  /** Runs `work`; a `timeout` that fired becomes {@link stalled} instead of `cancelled`. */
  private async untilStalled<T>(timeout: AbortSignal, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (timeout.aborted) throw this.stalled();
      throw error;
    }
  }

  /** llama.cpp `GET /props` (`n_ctx`), else Ollama `POST /api/show` (`num_ctx`, context length). */
  private async readWindow(
    modelId: string,
  ): Promise<{ window: Tokens; source: WindowSource } | null> {
    const quiet = async (url: string, init: RequestInit): Promise<unknown> => {
      try {
        const response = await this.env.fetch(url, { ...init, ...probeInit() });
        return response.ok ? await readJson(response, PROBE_BYTES) : null;
      } catch {
        return null;
      }
    };
    const props = (await quiet(rootOf(this.base, '/props'), { headers: this.headers(false) })) as {
      n_ctx?: unknown;
      default_generation_settings?: { n_ctx?: unknown };
    } | null;
    const nCtx = positive(props?.default_generation_settings?.n_ctx) ?? positive(props?.n_ctx);
    if (nCtx) return { window: nCtx, source: 'llama.cpp /props' };
    const show = (await quiet(rootOf(this.base, '/api/show'), {
      method: 'POST',
      headers: this.headers(true),
      body: JSON.stringify({ model: modelId }),
    })) as { model_info?: Record<string, unknown>; parameters?: unknown } | null;
    if (show) {
      const numCtx =
        typeof show.parameters === 'string'
          ? positive(Number(/(?:^|\n)\s*num_ctx\s+(\d+)/.exec(show.parameters)?.[1]))
          : null;
      const trained = Object.entries(show.model_info ?? {}).find(([key]) =>
        key.endsWith('.context_length'),
      )?.[1];
      // Ollama runs a model at num_ctx (4096 unless set), not its trained length: plan with the
      // smaller, unless the user said more (OLLAMA_CONTEXT_LENGTH is invisible from here).
      const runtime = numCtx ?? this.settings.contextWindow ?? OLLAMA_DEFAULT_NUM_CTX;
      const window = Math.min(runtime, positive(trained) ?? runtime);
      return {
        window,
        source: numCtx
          ? 'ollama /api/show'
          : this.settings.contextWindow
            ? 'setting'
            : 'ollama /api/show',
      };
    }
    return null;
  }

  private async hasTokenize(): Promise<boolean> {
    try {
      const response = await this.env.fetch(rootOf(this.base, '/tokenize'), {
        method: 'POST',
        headers: this.headers(true),
        body: JSON.stringify({ content: 'Loci', prompt: 'Loci', model: this.loaded ?? undefined }),
        ...probeInit(),
      });
      if (!response.ok) return false;
      const body = (await readJson(response, PROBE_BYTES)) as { tokens?: unknown } | null;
      if (!body) return false;
      return Array.isArray(body.tokens);
    } catch {
      return false;
    }
  }

  /**
   * Exact token count of `text` from the server's `/tokenize` (llama.cpp: `{content}` →
   * `{tokens}`), or null when it has none.
   */
  async countTokens(text: string): Promise<number | null> {
    if (!this.facts?.tokenize) return null;
    try {
      const response = await this.env.fetch(rootOf(this.base, '/tokenize'), {
        method: 'POST',
        headers: this.headers(true),
        body: JSON.stringify({ content: text, prompt: text, model: this.loaded ?? undefined }),
        ...probeInit(),
      });
      if (!response.ok) return null;
      const body = (await readJson(response, streamByteCap(text.length))) as {
        tokens?: unknown;
      } | null;
      return Array.isArray(body?.tokens) ? body.tokens.length : null;
    } catch {
      return null;
    }
  }

  /**
   * E86: the reply's `max_tokens`, cut so the prompt and the reply fit the window as the server
   * counts them. Loci plans a server's prompt with an estimate (ADR 0121); text the estimate
   * reads low (code, symbols, another script) would otherwise make a request the server refuses
   * ("exceeds the available context size") and the turn fail. With `/tokenize` the prompt is
   * counted exactly (one request of the messages' text, plus the template's few tokens) unless
   * even twice the estimate leaves the reply its room, which saves the round trip on most steps;
   * without it the request is sent as planned. A prompt that alone fills the window is
   * `context_window_exceeded`, before anything is generated.
   */
  private async fitReply(request: CompletionRequest): Promise<Tokens> {
    if (!this.facts?.tokenize) return request.maxTokens;
    const estimate = request.messages.reduce(
      (sum, m) => sum + ESTIMATE.countMessage(m.role, m.content),
      TEMPLATE_TOKENS_PER_PROMPT,
    );
    if (2 * estimate + request.maxTokens <= this.window) return request.maxTokens;
    const counted = await this.countTokens(request.messages.map((m) => m.content).join('\n'));
    if (counted === null) return request.maxTokens;
    const prompt =
      counted + request.messages.length * TEMPLATE_TOKENS_PER_MESSAGE + TEMPLATE_TOKENS_PER_PROMPT;
    const room = this.window - prompt;
    if (room < 1) {
      throw new AppError(
        'context_window_exceeded',
        `The prompt is ${prompt.toLocaleString('en')} tokens as the model server counts them, more than its ${this.window.toLocaleString('en')}-token window.`,
        { prompt, window: this.window },
      );
    }
    return Math.min(request.maxTokens, room);
  }

  async unload(): Promise<void> {
    this.generation?.abort();
    this.loaded = null;
  }

  async interrupt(): Promise<void> {
    this.generation?.abort();
  }

  contextWindow(): Tokens {
    return this.window;
  }

  /** The planner counts with the conservative estimator, labelled as an estimate (ADR 0121). */
  async tokenizer(): Promise<Tokenizer> {
    return createEstimateTokenizer();
  }

  tokenizerSource(): TokenizerSource {
    return { type: 'estimate' };
  }

  async complete(request: CompletionRequest): Promise<CompletionResult> {
    const model = this.loaded;
    if (!model) throw new AppError('model_not_loaded', 'No chat model is loaded.');
    if (request.signal?.aborted) throw new AppError('cancelled', 'The generation was stopped.');
    const maxTokens = await this.fitReply(request);
    if (request.signal?.aborted) throw new AppError('cancelled', 'The generation was stopped.');
    const controller = new AbortController();
    this.generation = controller;
    const onAbort = (): void => controller.abort();
    request.signal?.addEventListener('abort', onAbort, { once: true });
    // E82: every byte (headers included) re-arms the watch; silence for the stall time aborts.
    const watch = new StallWatch(this.stallMs, () => controller.abort());
    const stream = request.onDelta !== undefined;
    const body = {
      model,
      messages: request.messages,
      max_tokens: maxTokens,
      stream,
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      ...(request.topP !== undefined ? { top_p: request.topP } : {}),
      ...(request.jsonSchema
        ? {
            response_format: {
              type: 'json_schema',
              json_schema: {
                name: STEP_SCHEMA_NAME,
                schema: serverSchema(request.jsonSchema),
                strict: true,
              },
            },
          }
        : {}),
    };
    const limits: ReplyLimits = {
      chars: replyCharCap(maxTokens),
      bytes: streamByteCap(maxTokens),
      origin: this.base.origin,
    };
    try {
      watch.arm();
      const response = await callServer(
        {
          url: under(this.base, '/chat/completions'),
          init: {
            method: 'POST',
            headers: this.headers(true),
            body: JSON.stringify(body),
            signal: controller.signal,
          },
          base: this.base,
          model,
        },
        this.env,
      );
      watch.arm();
      return stream
        ? await readStream(response, controller, watch, limits, request.onDelta ?? (() => {}))
        : await readWhole(response, controller, watch, limits);
    } catch (error) {
      if (watch.fired && !request.signal?.aborted) throw this.stalled();
      throw error;
    } finally {
      watch.stop();
      request.signal?.removeEventListener('abort', onAbort);
      if (this.generation === controller) this.generation = null;
    }
  }
}

/** Fetch `init` for the optional probes: no redirects (E84), a short timeout. */
const probeInit = (): RequestInit => ({
  ...NO_REDIRECT,
  signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
});

/** Most bytes of `/v1/models` read (a long list of a hosted router is about 1 MB). */
const MODEL_LIST_BYTES = 16 * 1024 * 1024;
/** Most bytes of `/props`, `/api/show` or `/tokenize` read while loading. */
const PROBE_BYTES = 4 * 1024 * 1024;

/** Model ids of the user's own server carry this prefix on the Models screen and in settings. */

export const isServerModel = (modelId: string): boolean => modelId.startsWith(SERVER_MODEL_PREFIX);

/** The id the server knows the model by. */
export const serverModelOf = (modelId: string): string => modelId.slice(SERVER_MODEL_PREFIX.length);
