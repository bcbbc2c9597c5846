/**
 * The LLM worker's handler map (`src/workers/llm.worker.ts`). The main-thread client
 * (`src/adapters/llm/worker-llm-engine.ts`) and the worker's handlers are both typed from it.
 */
import type {
  ChatTurn,
  CompletionResult,
  JsonSchema,
  LoadProgress,
} from '../core/ports/llm-engine';
import type { CatalogModelRecord } from '../core/catalog/model-record';
import type { Tokens } from '../core/units';
import type { CallContext } from './protocol';

/** A completion request without its callbacks and signal (they cannot cross a worker). */
export interface WireCompletionRequest {
  messages: ChatTurn[];
  maxTokens: Tokens;
  temperature?: number;
  jsonSchema?: JsonSchema;
  /** Whether to emit `delta` events (the caller passed `onDelta`). */
  stream: boolean;
}

/** How the main thread builds the exact tokenizer for the loaded model. */
export type TokenizerSource =
  | { type: 'llama3' }
  /** web-llm cached the model's tokenizer.json in Cache Storage at this URL. */
  | { type: 'tokenizer_json'; cacheName: string; url: string };

export interface LoadedModel {
  modelId: string;
  contextWindow: Tokens;
  tokenizer: TokenizerSource;
}

/** A scripted reply rule that can cross `postMessage`: first matching pattern wins. */
export interface ScriptedRule {
  /** Regular-expression source tested against the last user message. */
  pattern: string;
  flags?: string;
  reply: string;
}

/** What the e2e page posts to make the worker host a ScriptedEngine instead of web-llm. */
export interface ScriptedConfig {
  outputs?: string[];
  rules?: ScriptedRule[];
  /** Reply when no output is queued and no rule matches. */
  fallback?: string;
  contextWindow?: Tokens;
  chunkChars?: number;
}

export type LlmEngineKind = 'webllm' | 'scripted';

export type LlmApi = {
  /** Loads a model; emits progress. With engine `scripted` (e2e build only) no weights are fetched. */
  load(
    args: { modelId: string; engine: LlmEngineKind; scripted?: ScriptedConfig },
    ctx: CallContext<LoadProgress>,
  ): Promise<LoadedModel>;
  unload(args: null): Promise<void>;
  /** One completion; emits `delta` events while streaming. Cancel = abort the call. */
  complete(
    args: WireCompletionRequest,
    ctx: CallContext<{ type: 'delta'; text: string }>,
  ): Promise<CompletionResult>;
  interrupt(args: null): Promise<void>;
  /** Queues more scripted replies (e2e build only; `invalid_argument` otherwise). */
  scriptedPush(args: { outputs: string[] }): Promise<void>;
  /** web-llm's `prebuiltAppConfig.model_list`, read in the worker so the shell never loads web-llm. */
  modelList(args: null): Promise<CatalogModelRecord[]>;
  /** web-llm's `hasModelInCache` with the engine's app config. */
  cacheHas(args: { modelId: string }): Promise<boolean>;
  /** web-llm's `deleteModelAllInfoInCache` with the engine's app config. */
  cacheDelete(args: { modelId: string }): Promise<void>;
  /** Bytes the model occupies in Cache Storage. */
  cacheBytes(args: { modelId: string }): Promise<number>;
};
