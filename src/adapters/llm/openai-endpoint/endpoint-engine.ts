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
import { callServer, parseBaseUrl, rootOf, under, type EndpointEnv } from './endpoint-http';
import { SseParser } from './sse';

/** The window used when neither the server nor the user says (every preset serves at least this). */
export const DEFAULT_ENDPOINT_WINDOW: Tokens = 4096;
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

const positive = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : null;

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
    this.window = settings.contextWindow ?? DEFAULT_ENDPOINT_WINDOW;
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
    const response = await callServer(
      {
        url: under(this.base, '/models'),
        init: { headers: this.headers(false), ...(signal ? { signal } : {}) },
        base: this.base,
      },
      this.env,
    );
    const body = (await response.json().catch(() => null)) as { data?: unknown } | null;
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
    const { window, source } = found ?? {
      window: this.settings.contextWindow ?? DEFAULT_ENDPOINT_WINDOW,
      source: this.settings.contextWindow ? ('setting' as const) : ('default' as const),
    };
    this.window = window;
    this.facts = {
      models: ids,
      contextWindow: window,
      windowSource: source,
      tokenize: await this.hasTokenize(),
    };
    this.loaded = modelId;
    onProgress?.({ type: 'ready', modelId });
  }

  /** llama.cpp `GET /props` (`n_ctx`), else Ollama `POST /api/show` (`num_ctx`, context length). */
  private async readWindow(
    modelId: string,
  ): Promise<{ window: Tokens; source: WindowSource } | null> {
    const quiet = async (url: string, init: RequestInit): Promise<unknown> => {
      try {
        const response = await this.env.fetch(url, init);
        return response.ok ? await response.json() : null;
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
      });
      if (!response.ok) return false;
      const body = (await response.json()) as { tokens?: unknown };
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
      });
      const body = (await response.json()) as { tokens?: unknown };
      return Array.isArray(body.tokens) ? body.tokens.length : null;
    } catch {
      return null;
    }
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
    const controller = new AbortController();
    this.generation = controller;
    const onAbort = (): void => controller.abort();
    request.signal?.addEventListener('abort', onAbort, { once: true });
    const stream = request.onDelta !== undefined;
    const body = {
      model,
      messages: request.messages,
      max_tokens: request.maxTokens,
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
    try {
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
      return stream
        ? await this.readStream(response, controller.signal, request.onDelta ?? (() => {}))
        : await readWhole(response);
    } finally {
      request.signal?.removeEventListener('abort', onAbort);
      if (this.generation === controller) this.generation = null;
    }
  }

  private async readStream(
    response: Response,
    signal: AbortSignal,
    onDelta: (text: string) => void,
  ): Promise<CompletionResult> {
    const reader = response.body?.getReader();
    if (!reader) throw new AppError('endpoint_failed', 'The model server sent no stream.');
    const decoder = new TextDecoder();
    let text = '';
    let finish: string | null = null;
    let done = false;
    let usage: Usage | undefined;
    let serverError: string | null = null;
    const parser = new SseParser((data) => {
      if (data.trim() === '[DONE]') {
        done = true;
        return;
      }
      let chunk: StreamChunk;
      try {
        chunk = JSON.parse(data) as StreamChunk;
      } catch {
        return;
      }
      if (chunk.error) {
        serverError =
          typeof chunk.error === 'string' ? chunk.error : (chunk.error.message ?? 'unknown error');
        return;
      }
      const choice = chunk.choices?.[0];
      const piece = choice?.delta?.content;
      if (typeof piece === 'string' && piece.length > 0) {
        text += piece;
        onDelta(piece);
      }
      if (choice?.finish_reason) finish = choice.finish_reason;
      if (chunk.usage) usage = chunk.usage;
      if (chunk.timings) usage = { ...usage, timings: chunk.timings };
    });
    const stopped = () => new AppError('cancelled', 'The generation was stopped.');
    try {
      for (;;) {
        const { value, done: ended } = await reader.read();
        if (ended) break;
        parser.push(decoder.decode(value, { stream: true }));
        if (serverError) break;
      }
      parser.push(decoder.decode());
      parser.end();
    } catch (error) {
      if (signal.aborted) throw stopped();
      throw new AppError(
        'endpoint_stream_cut',
        `The model server stopped in the middle of the reply (${text.length} characters in). Nothing was saved from it; retry when the server is back.`,
        { cause: String(error) },
      );
    } finally {
      reader.releaseLock?.();
    }
    if (signal.aborted) throw stopped();
    if (serverError) {
      throw new AppError(
        'endpoint_failed',
        `The model server failed mid-reply: “${String(serverError).slice(0, 300)}”`,
      );
    }
    if (!finish && !done) {
      throw new AppError(
        'endpoint_stream_cut',
        `The model server ended the reply without finishing it (${text.length} characters in). Nothing was saved from it; retry when the server is back.`,
      );
    }
    return result(text, finish, usage);
  }
}

interface Usage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number };
  /** llama.cpp server's own counters (`cache_n`: prompt tokens reused). */
  timings?: { cache_n?: number; prompt_n?: number };
}

interface StreamChunk {
  choices?: { delta?: { content?: string | null }; finish_reason?: string | null }[];
  usage?: Usage;
  timings?: Usage['timings'];
  error?: string | { message?: string };
}

function result(text: string, finish: string | null, usage: Usage | undefined): CompletionResult {
  const cached =
    positive(usage?.prompt_tokens_details?.cached_tokens) ?? positive(usage?.timings?.cache_n);
  const prompt = positive(usage?.prompt_tokens);
  const completion = positive(usage?.completion_tokens);
  return {
    text,
    finishReason: finish === 'length' ? 'length' : 'stop',
    ...(prompt ? { promptTokens: prompt } : {}),
    ...(completion ? { completionTokens: completion } : {}),
    ...(cached ? { cachedTokens: cached } : {}),
  };
}

async function readWhole(response: Response): Promise<CompletionResult> {
  const body = (await response.json().catch(() => null)) as {
    choices?: { message?: { content?: string | null }; finish_reason?: string | null }[];
    usage?: Usage;
    timings?: Usage['timings'];
  } | null;
  const choice = body?.choices?.[0];
  if (!choice) throw new AppError('endpoint_failed', 'The model server sent no reply.');
  return result(choice.message?.content ?? '', choice.finish_reason ?? 'stop', {
    ...body?.usage,
    ...(body?.timings ? { timings: body.timings } : {}),
  });
}

/** Model ids of the user's own server carry this prefix on the Models screen and in settings. */

export const isServerModel = (modelId: string): boolean => modelId.startsWith(SERVER_MODEL_PREFIX);

/** The id the server knows the model by. */
export const serverModelOf = (modelId: string): string => modelId.slice(SERVER_MODEL_PREFIX.length);
