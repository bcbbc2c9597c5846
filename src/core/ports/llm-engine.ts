import type { Tokens } from '../units';
import type { Tokenizer } from './tokenizer';

/** Progress of a model load, as a tagged union. */
export type LoadProgress =
  | { type: 'checking'; text: string }
  | {
      type: 'downloading';
      /** 0..1 */
      fraction: number;
      loadedBytes: number;
      totalBytes: number;
      text: string;
    }
  | { type: 'compiling'; fraction: number; text: string }
  | { type: 'ready'; modelId: string };

export interface ChatTurn {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** A JSON schema, as a plain object. Adapters serialize it as the engine requires. */
export type JsonSchema = Record<string, unknown>;

export interface CompletionRequest {
  messages: ChatTurn[];
  maxTokens: Tokens;
  /** Sampling temperature (0 is greedy); the engine's own default when missing. */
  temperature?: number;
  /** Nucleus sampling's top-p; the engine's own default when missing. */
  topP?: number;
  /** When set, the engine constrains decoding to this schema (web-llm's JSON-schema mode). */
  jsonSchema?: JsonSchema;
  /** Called with each new piece of text as it is generated. */
  onDelta?: (delta: string) => void;
  /**
   * Called when the engine threw away what it streamed so far and generates again: the deltas
   * that follow start a new text (the CPU engine does this when the model wrote bytes that are
   * not UTF-8, ADR 0116).
   */
  onRestart?: () => void;
  signal?: AbortSignal;
}

export interface CompletionResult {
  text: string;
  finishReason: 'stop' | 'length' | 'abort';
  promptTokens?: Tokens;
  completionTokens?: Tokens;
  /** Prompt tokens the engine reused from its cache instead of reading them again. */
  cachedTokens?: Tokens;
}

/**
 * The language model. The web-llm worker client, the in-worker engine and the scripted test
 * engine all implement this; callers cannot tell which one they have.
 */
export interface LlmEngine {
  /** The loaded model, or null. */
  readonly modelId: string | null;
  load(modelId: string, onProgress?: (p: LoadProgress) => void): Promise<void>;
  unload(): Promise<void>;
  /** Streams when `onDelta` is set. Rejects with an AppError (`cancelled` on abort). */
  complete(request: CompletionRequest): Promise<CompletionResult>;
  interrupt(): Promise<void>;
  /** The loaded model's window; a conservative default before a load. */
  contextWindow(): Tokens;
  /** Exact once a model's tokenizer is loaded; a documented estimator before. */
  tokenizer(): Promise<Tokenizer>;
  /**
   * True when the loaded engine keeps the longest common token prefix of consecutive requests
   * (llama.cpp in wllama, a model server); false or absent for web-llm, which keeps its cache
   * only for a conversation continued message for message. The queue manager shapes its summary
   * request by it (C26).
   */
  readonly prefixCache?: boolean;
}
