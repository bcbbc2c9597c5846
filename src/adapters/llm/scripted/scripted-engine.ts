import { commonMessagePrefix } from '../../../core/context/prefix-reuse';
import { AppError } from '../../../core/errors';
import type {
  ChatTurn,
  CompletionRequest,
  CompletionResult,
  LlmEngine,
  LoadProgress,
} from '../../../core/ports/llm-engine';
import type { Tokenizer } from '../../../core/ports/tokenizer';
import type { Tokens } from '../../../core/units';
import {
  createLlama3Tokenizer,
  llama3Decode,
  llama3Encode,
} from '../../tokenizer/llama3-tokenizer';
import { checkJsonSchema } from './check-json-schema';

/** See {@link ScriptedEngine.engineKind}. */
export const SCRIPTED_ENGINE_MARKER = 'loci-scripted-engine-test-double';

export interface ScriptedEngineOptions {
  /** Replies, used in order, one per `complete` call (after anything queued with `push`). */
  outputs?: string[];
  /** Computes the reply when the queue is empty. */
  rule?: (request: CompletionRequest, callIndex: number) => string;
  /**
   * Which requests the queued outputs answer (default: every one). The e2e build queues model
   * steps, so it keeps the queue for requests with a JSON schema: a summary request in between
   * goes to the rules and never takes the next turn's step (E18).
   */
  queueAnswers?: (request: CompletionRequest) => boolean;
  /** The model id it reports as loaded. Default `scripted-llama3`. */
  modelId?: string;
  /** Default 4096, like the small web-llm models. */
  contextWindow?: Tokens;
  /** Counts prompt and reply tokens. Default: the real Llama 3 tokenizer. */
  tokenizer?: Tokenizer;
  /** Streams this many characters per delta instead of one Llama 3 token per delta. */
  chunkChars?: number;
  /**
   * When true (default), a reply that does not match the request's `jsonSchema` rejects with
   * `schema_violation`: a grammar-constrained engine could never produce it, so the script is wrong.
   */
  enforceSchema?: boolean;
  /**
   * What {@link ScriptedEngine.prefixCache} reports (default false, like web-llm). When true the
   * engine also says what it reused, as llama.cpp does: the leading messages a request shares
   * with the one before (`cachedTokens`).
   */
  prefixCache?: boolean;
  /** Waits (prompt − cached) ÷ this seconds before the first piece: reading, as a CPU engine does. */
  readTokensPerSecond?: number;
}

/**
 * A deterministic {@link LlmEngine} for tests, benchmarks and the e2e build (rule E10): replies
 * come from a queue or a rule, stream asynchronously token by token, honour `signal` and
 * `interrupt()`, are checked against the requested JSON schema, and are counted with a real
 * tokenizer. It goes through the same port as web-llm; callers cannot tell them apart.
 */
export class ScriptedEngine implements LlmEngine {
  /**
   * A marker string the production build is checked for (scripts/vite-plugin-loci-assets.ts): if
   * it appears in a production chunk, the scripted engine leaked and the build fails.
   */
  readonly engineKind = SCRIPTED_ENGINE_MARKER;
  /** Every request received, in order (callbacks and signal included). */
  readonly requests: CompletionRequest[] = [];
  private readonly queue: string[];
  private readonly options: ScriptedEngineOptions;
  private readonly counter: Tokenizer;
  private loaded: string | null;
  private current: AbortController | null = null;
  private held: readonly ChatTurn[] = [];

  constructor(options: ScriptedEngineOptions = {}) {
    this.options = options;
    this.queue = [...(options.outputs ?? [])];
    this.counter = options.tokenizer ?? createLlama3Tokenizer();
    this.loaded = options.modelId ?? 'scripted-llama3';
  }

  get modelId(): string | null {
    return this.loaded;
  }

  get prefixCache(): boolean {
    return this.options.prefixCache ?? false;
  }

  /** Queues more replies. */
  push(...outputs: string[]): void {
    this.queue.push(...outputs);
  }

  async load(modelId: string, onProgress?: (p: LoadProgress) => void): Promise<void> {
    onProgress?.({ type: 'checking', text: `Checking ${modelId}` });
    await tick(0);
    onProgress?.({
      type: 'downloading',
      fraction: 1,
      loadedBytes: 0,
      totalBytes: 0,
      text: 'cached',
    });
    onProgress?.({ type: 'compiling', fraction: 1, text: 'ready' });
    this.loaded = modelId;
    onProgress?.({ type: 'ready', modelId });
  }

  async unload(): Promise<void> {
    this.current?.abort();
    this.loaded = null;
  }

  contextWindow(): Tokens {
    return this.options.contextWindow ?? 4096;
  }

  async tokenizer(): Promise<Tokenizer> {
    return this.counter;
  }

  async interrupt(): Promise<void> {
    this.current?.abort();
  }

  async complete(request: CompletionRequest): Promise<CompletionResult> {
    const callIndex = this.requests.length;
    this.requests.push(request);
    if (!this.loaded) throw new AppError('model_not_loaded', 'No model is loaded.');
    const promptTokens = request.messages.reduce(
      (sum, m) => sum + this.counter.countMessage(m.role, m.content),
      0,
    );
    if (promptTokens > this.contextWindow()) {
      throw new AppError(
        'context_window_exceeded',
        `The prompt has ${promptTokens} tokens; the window is ${this.contextWindow()}.`,
        { promptTokens, contextWindow: this.contextWindow() },
      );
    }
    const cachedTokens = this.prefixCache ? this.cached(request.messages) : undefined;
    this.held = request.messages;
    const full = this.nextOutput(request, callIndex);
    const pieces = this.split(full);
    const kept = pieces.slice(0, Math.max(0, request.maxTokens));
    const text = kept.join('');
    const finishReason = kept.length < pieces.length ? 'length' : 'stop';
    if (request.jsonSchema && finishReason === 'stop' && this.options.enforceSchema !== false) {
      this.checkSchema(text, request, callIndex);
    }

    const controller = new AbortController();
    this.current = controller;
    const abort = (): void => controller.abort();
    request.signal?.addEventListener('abort', abort, { once: true });
    try {
      if (request.signal?.aborted) controller.abort();
      const rate = this.options.readTokensPerSecond;
      if (rate)
        await abortableWait(
          ((promptTokens - (cachedTokens ?? 0)) / rate) * 1000,
          controller.signal,
        );
      for (const [i, piece] of kept.entries()) {
        await tick(i);
        if (controller.signal.aborted)
          throw new AppError('cancelled', 'The generation was stopped.');
        request.onDelta?.(piece);
      }
      await tick(0);
      if (controller.signal.aborted) throw new AppError('cancelled', 'The generation was stopped.');
    } finally {
      request.signal?.removeEventListener('abort', abort);
      if (this.current === controller) this.current = null;
    }
    return {
      text,
      finishReason,
      promptTokens,
      completionTokens: this.options.chunkChars ? this.counter.count(text) : kept.length,
      ...(cachedTokens !== undefined ? { cachedTokens } : {}),
    };
  }

  /** Tokens of the leading messages `messages` shares with the request before (C26). */
  private cached(messages: readonly ChatTurn[]): Tokens {
    return messages
      .slice(0, commonMessagePrefix(this.held, messages))
      .reduce((sum, m) => sum + this.counter.countMessage(m.role, m.content), 0);
  }

  private nextOutput(request: CompletionRequest, callIndex: number): string {
    const fromQueue = this.options.queueAnswers?.(request) ?? true;
    const queued = fromQueue ? this.queue.shift() : undefined;
    if (queued !== undefined) return queued;
    if (this.options.rule) return this.options.rule(request, callIndex);
    throw new AppError('internal', `ScriptedEngine has no reply for call ${callIndex + 1}.`);
  }

  private checkSchema(text: string, request: CompletionRequest, callIndex: number): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new AppError(
        'schema_violation',
        `Scripted reply ${callIndex + 1} is not JSON, but the request asked for a JSON schema.`,
        { text, parseError: String(error) },
      );
    }
    const problem = checkJsonSchema(parsed, request.jsonSchema ?? {});
    if (problem) {
      throw new AppError(
        'schema_violation',
        `Scripted reply ${callIndex + 1} breaks the schema: ${problem}`,
        { text, problem },
      );
    }
  }

  /** Splits a reply into stream pieces: Llama 3 tokens (never splitting a character) or chunks. */
  private split(text: string): string[] {
    const chunk = this.options.chunkChars;
    if (chunk && chunk > 0) {
      const chars = [...text];
      const out: string[] = [];
      for (let i = 0; i < chars.length; i += chunk) out.push(chars.slice(i, i + chunk).join(''));
      return out;
    }
    const ids = llama3Encode(text);
    const out: string[] = [];
    let pending: number[] = [];
    for (const [i, id] of ids.entries()) {
      pending.push(id);
      const piece = llama3Decode(pending);
      // A byte-level token can end inside a multi-byte character; wait for the rest of it.
      if (piece.endsWith('\uFFFD') && i < ids.length - 1) continue;
      out.push(piece);
      pending = [];
    }
    return out.filter((piece) => piece.length > 0);
  }
}

/**
 * Yields before each delta: a macrotask every 8 pieces (so timers, e.g. a test's interrupt, can
 * run mid-stream) and a microtask otherwise (setTimeout(0) costs ~1 ms in Node; a 500-token reply
 * would take 0.75 s).
 */
/** Resolves after `ms`, or at once when `signal` aborts (the caller checks it next). */
function abortableWait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

function tick(index = 0): Promise<void> {
  if (index % 8 === 0) return new Promise((resolve) => setTimeout(resolve, 0));
  return Promise.resolve();
}
