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
import type { ConnectionReport, EndpointSettings, ServerFacts } from './endpoint-types';

/** A completion request without its callbacks and signal (they cannot cross a worker). */
export interface WireCompletionRequest {
  messages: ChatTurn[];
  maxTokens: Tokens;
  temperature?: number;
  topP?: number;
  jsonSchema?: JsonSchema;
  /** Whether to emit `delta` events (the caller passed `onDelta`). */
  stream: boolean;
}

/** The tokenizer part of a GGUF model's metadata: all the main thread needs to count tokens. */
export interface GgufVocab {
  /** `tokenizer.ggml.model`: `gpt2` is byte-level BPE (Qwen, Llama 3, SmolLM2). */
  model: string;
  /** `tokenizer.ggml.pre`: the pre-tokenizer (`qwen2`, `llama-bpe`, `smollm`, …). */
  pre: string;
  tokens: string[];
  /** llama.cpp token types: 1 normal, 3 control, 4 user-defined, 6 byte. */
  types: number[];
  merges: string[];
  bosId: number | null;
  addBos: boolean;
  chatTemplate: string | null;
}

/** How the main thread builds the exact tokenizer for the loaded model. */
export type TokenizerSource =
  | { type: 'llama3' }
  /** web-llm cached the model's tokenizer.json in Cache Storage at this URL. */
  | { type: 'tokenizer_json'; cacheName: string; url: string }
  /** A GGUF model (wllama): its own vocabulary and merges, read from the file. */
  | { type: 'gguf_vocab'; vocab: GgufVocab }
  | { type: 'estimate' };

/** Where a CPU (GGUF) model comes from and how it is loaded. */
export interface GgufSource {
  /** The GGUF file, or every part of a split one in order (`-00001-of-0000N`). */
  urls: string[];
  /** `n_ctx` to load with: the window the planner gets. */
  contextWindow: Tokens;
  /** Threads to use when the page is cross-origin isolated (default: half the cores). */
  threads?: number;
}

/** How the CPU engine runs (shown on the Models screen). */
export interface CpuRuntime {
  engine: 'wllama';
  threads: number;
  /** False: SharedArrayBuffer is unavailable, so llama.cpp runs on one thread. */
  isolated: boolean;
}

export interface LoadedModel {
  modelId: string;
  contextWindow: Tokens;
  tokenizer: TokenizerSource;
  /** Present for the CPU engine. */
  runtime?: CpuRuntime;
  /** Present for the user's own model server. */
  server?: ServerFacts;
}

/** What the CPU model cache holds for one model. */
export interface GgufCacheStatus {
  /** Every file is complete. */
  complete: boolean;
  /** Bytes stored for the model's files (complete or not). */
  bytes: number;
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
  /**
   * Reads prompts at this many tokens a second, keeping a prefix cache as llama.cpp does: the
   * wait before the first piece is what a CPU engine makes a user wait (A43 tests).
   */
  readTokensPerSecond?: number;
}

export type LlmEngineKind = 'webllm' | 'wllama' | 'scripted' | 'endpoint';

export type LlmApi = {
  /** Loads a model; emits progress. With engine `scripted` (e2e build only) no weights are fetched. */
  load(
    args: {
      modelId: string;
      engine: LlmEngineKind;
      scripted?: ScriptedConfig;
      gguf?: GgufSource;
      /** The user's own model server (engine `endpoint`); `modelId` is the server's model id. */
      endpoint?: EndpointSettings;
    },
    ctx: CallContext<LoadProgress>,
  ): Promise<LoadedModel>;
  unload(args: null): Promise<void>;
  /**
   * One completion; emits `delta` events while streaming, and `restart` when the engine discards
   * what it streamed and starts over. Cancel = abort the call.
   */
  complete(
    args: WireCompletionRequest,
    ctx: CallContext<{ type: 'delta'; text: string } | { type: 'restart' }>,
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
  /** The CPU engine's download cache (OPFS) for a GGUF model's files. */
  ggufCacheStatus(args: { urls: string[] }): Promise<GgufCacheStatus>;
  ggufCacheDelete(args: { urls: string[] }): Promise<void>;
  /**
   * Every URL this worker fetched (its resource timeline) and every file its engine had fetched
   * elsewhere (wllama's wasm, fetched by wllama's own worker), so the page can ask the service
   * worker to keep the code among them for offline use (P30, ADR 0189).
   */
  fetchedAssets(args: null): Promise<string[]>;
  /** "Test connection" for a model server, run in the worker under the worker's policy (E71). */
  endpointTest(args: {
    settings: EndpointSettings;
    model: string | null;
  }): Promise<ConnectionReport>;
};
