import { AppError } from '../core/errors';
import { replyCharCap } from '../adapters/llm/reply-limits';
import type { CatalogModelRecord } from '../core/catalog/model-record';
import type { LlmEngine } from '../core/ports/llm-engine';
import type {
  EndpointSettings,
  ServerFacts,
} from '../adapters/llm/openai-endpoint/endpoint-engine';
import type { ConnectionReport } from '../adapters/llm/openai-endpoint/test-connection';
import type {
  CpuRuntime,
  GgufCacheStatus,
  GgufSource,
  LlmApi,
  LlmEngineKind,
  ScriptedConfig,
  TokenizerSource,
} from '../rpc/llm-api';

/** An engine the worker can host, plus how the main thread should count its tokens. */
export interface HostedEngine extends LlmEngine {
  tokenizerSource(): TokenizerSource;
  /** The CPU engine only: threads and isolation. */
  runtime?(): CpuRuntime;
  /** The endpoint engine only: what the server said about itself. */
  serverFacts?(): ServerFacts | null;
  /** Scripted engines only: queue more replies. */
  push?(...outputs: string[]): void;
  /** Files the engine fetched outside this worker's own timeline (wllama's wasm, P30). */
  fetchedElsewhere?(): string[];
}

/** web-llm's model list and cache helpers (lazily imported in the worker). */
export interface ModelStore {
  list(): Promise<CatalogModelRecord[]>;
  has(modelId: string): Promise<boolean>;
  remove(modelId: string): Promise<void>;
  bytes(modelId: string): Promise<number>;
}

export interface LlmWorkerDeps {
  createWebLlm(): HostedEngine;
  models: ModelStore;
  /** The CPU engine (wllama) for one GGUF model. */
  createWllama(source: GgufSource): HostedEngine;
  /** wllama's download cache (OPFS). */
  ggufCache: {
    status(urls: string[]): Promise<GgufCacheStatus>;
    remove(urls: string[]): Promise<void>;
  };
  /** The user's own OpenAI-compatible model server. */
  createEndpoint?: (settings: EndpointSettings) => HostedEngine;
  /** Test connection for a model server (same fetch and policy as the engine). */
  testEndpoint?: (settings: EndpointSettings, model: string | null) => Promise<ConnectionReport>;
  /** Present only in the e2e build (the production worker has no scripted engine at all). */
  createScripted?: (config: ScriptedConfig) => Promise<HostedEngine>;
  /** The URLs this worker fetched (its resource timeline); none when absent. */
  fetched?: () => string[];
}

/**
 * The LLM worker's handlers over one hosted engine at a time (rule E17). Switching between
 * web-llm and the scripted engine (e2e build) replaces the engine; a load in progress is cancelled
 * by terminating the worker from the main thread, not here.
 */
export function createLlmHandlers(deps: LlmWorkerDeps): LlmApi {
  let engine: HostedEngine | null = null;
  let kind: LlmEngineKind | null = null;
  /** What every engine loaded here fetched outside this worker's timeline (P30). */
  const fetchedElsewhere = new Set<string>();

  const current = (): HostedEngine => {
    if (!engine?.modelId) throw new AppError('model_not_loaded', 'No chat model is loaded.');
    return engine;
  };

  return {
    async load({ modelId, engine: wanted, scripted, gguf, endpoint }, ctx) {
      if (wanted === 'endpoint') {
        if (!endpoint || !deps.createEndpoint) {
          throw new AppError('invalid_argument', `No model server is set up for ${modelId}.`);
        }
        await engine?.unload();
        // One engine per server: its address and key are fixed at construction.
        engine = deps.createEndpoint(endpoint);
      } else if (wanted === 'wllama') {
        if (!gguf) throw new AppError('invalid_argument', `No GGUF source for ${modelId}.`);
        await engine?.unload();
        // One engine per GGUF model: its source (URLs, window) is fixed at construction.
        engine = deps.createWllama(gguf);
      } else if (wanted === 'scripted') {
        if (!deps.createScripted) {
          throw new AppError(
            'invalid_argument',
            'The scripted engine exists only in the e2e build.',
          );
        }
        await engine?.unload();
        engine = await deps.createScripted(scripted ?? {});
      } else if (kind !== 'webllm' || !engine) {
        await engine?.unload();
        engine = deps.createWebLlm();
      }
      kind = wanted;
      await engine.load(modelId, (p) => ctx.emit(p));
      for (const url of engine.fetchedElsewhere?.() ?? []) fetchedElsewhere.add(url);
      const server = engine.serverFacts?.() ?? null;
      return {
        modelId,
        contextWindow: engine.contextWindow(),
        tokenizer: engine.tokenizerSource(),
        ...(engine.runtime ? { runtime: engine.runtime() } : {}),
        ...(server ? { server } : {}),
      };
    },
    async unload() {
      await engine?.unload();
    },
    async complete(args, ctx) {
      const active = current();
      // E81: whatever the engine, a reply past the cap is stopped here (ADR 0187). web-llm and
      // wllama count tokens themselves; this is the backstop, and the endpoint engine's own.
      const cap = replyCharCap(args.maxTokens);
      const guard = new AbortController();
      const cancel = (): void => guard.abort();
      if (ctx.signal.aborted) guard.abort();
      else ctx.signal.addEventListener('abort', cancel, { once: true });
      let chars = 0;
      let over = false;
      const tooLong = () =>
        new AppError(
          'reply_too_long',
          `The model wrote more than ${cap.toLocaleString('en')} characters for a reply of at most ${args.maxTokens.toLocaleString('en')} tokens, so Loci stopped it.`,
        );
      try {
        const result = await active.complete({
          messages: args.messages,
          maxTokens: args.maxTokens,
          ...(args.temperature !== undefined ? { temperature: args.temperature } : {}),
          ...(args.topP !== undefined ? { topP: args.topP } : {}),
          ...(args.jsonSchema ? { jsonSchema: args.jsonSchema } : {}),
          ...(args.stream
            ? {
                onDelta: (text: string) => {
                  if (over) return;
                  chars += text.length;
                  if (chars > cap) {
                    over = true;
                    guard.abort();
                    return;
                  }
                  ctx.emit({ type: 'delta', text });
                },
                onRestart: () => {
                  chars = 0;
                  ctx.emit({ type: 'restart' });
                },
              }
            : {}),
          signal: guard.signal,
        });
        if (over || result.text.length > cap) throw tooLong();
        return result;
      } catch (error) {
        if (over) throw tooLong();
        throw error;
      } finally {
        ctx.signal.removeEventListener('abort', cancel);
      }
    },
    async interrupt() {
      await engine?.interrupt();
    },
    async scriptedPush({ outputs }) {
      if (!engine?.push) throw new AppError('invalid_argument', 'No scripted engine is loaded.');
      engine.push(...outputs);
    },
    modelList: () => deps.models.list(),
    cacheHas: ({ modelId }) => deps.models.has(modelId),
    cacheDelete: ({ modelId }) => deps.models.remove(modelId),
    cacheBytes: ({ modelId }) => deps.models.bytes(modelId),
    ggufCacheStatus: ({ urls }) => deps.ggufCache.status(urls),
    fetchedAssets: async () => [...(deps.fetched?.() ?? []), ...fetchedElsewhere],
    endpointTest: async ({ settings, model }) => {
      if (!deps.testEndpoint) throw new AppError('invalid_argument', 'No model-server support.');
      return deps.testEndpoint(settings, model);
    },
    ggufCacheDelete: async ({ urls }) => {
      if (engine?.modelId && kind === 'wllama') await engine.unload();
      await deps.ggufCache.remove(urls);
    },
  };
}
