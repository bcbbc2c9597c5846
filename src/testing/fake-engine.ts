/**
 * A deterministic {@link LlmEngine} for core tests, with the same options as the project's
 * `ScriptedEngine` (`outputs`, `rule(request, callIndex)`, `contextWindow`, `tokenizer`): it
 * replies from a queue or a rule that reads the prompt, streams the reply in small deltas, and
 * rejects a prompt that would not fit its window (`context_window_exceeded`), like web-llm.
 */
import { commonMessagePrefix } from '../core/context/prefix-reuse';
import { AppError } from '../core/errors';
import type {
  ChatTurn,
  CompletionRequest,
  CompletionResult,
  LlmEngine,
  LoadProgress,
} from '../core/ports/llm-engine';
import type { Tokenizer } from '../core/ports/tokenizer';
import { createEstimateTokenizer } from '../core/tokens/estimate-tokenizer';
import type { Tokens } from '../core/units';

export type EngineRule = (request: CompletionRequest, callIndex: number) => string | Error;

export interface FakeEngineOptions {
  outputs?: (string | Error)[];
  rule?: EngineRule;
  contextWindow?: Tokens;
  tokenizer?: Tokenizer;
  /** What {@link FakeEngine.prefixCache} reports (default false, like web-llm). */
  prefixCache?: boolean;
}

export class FakeEngine implements LlmEngine {
  modelId: string | null = 'fake-model';
  readonly requests: CompletionRequest[] = [];
  private readonly outputs: (string | Error)[];
  private readonly window: Tokens;
  private readonly tok: Tokenizer;
  private previous: readonly ChatTurn[] = [];

  constructor(private readonly options: FakeEngineOptions = {}) {
    this.outputs = [...(options.outputs ?? [])];
    this.window = options.contextWindow ?? 4096;
    this.tok = options.tokenizer ?? createEstimateTokenizer();
  }

  get prefixCache(): boolean {
    return this.options.prefixCache ?? false;
  }

  push(...outputs: (string | Error)[]): void {
    this.outputs.push(...outputs);
  }

  load(modelId: string, onProgress?: (p: LoadProgress) => void): Promise<void> {
    this.modelId = modelId;
    onProgress?.({ type: 'ready', modelId });
    return Promise.resolve();
  }

  unload(): Promise<void> {
    this.modelId = null;
    return Promise.resolve();
  }

  async complete(request: CompletionRequest): Promise<CompletionResult> {
    const callIndex = this.requests.length;
    this.requests.push(request);
    const prompt = request.messages.reduce(
      (sum, turn) => sum + this.tok.countMessage(turn.role, turn.content),
      0,
    );
    if (prompt + request.maxTokens > this.window) {
      throw new AppError(
        'context_window_exceeded',
        `Prompt ${prompt} + ${request.maxTokens} exceeds ${this.window}.`,
      );
    }
    if (request.signal?.aborted) throw new AppError('cancelled', 'Generation was cancelled.');
    // As llama.cpp: the messages this request shares, from the start, with the one before.
    const cached = this.prefixCache ? this.sharedPrefix(request.messages) : undefined;
    this.previous = request.messages;
    const next =
      this.outputs.length > 0 ? this.outputs.shift() : this.options.rule?.(request, callIndex);
    if (next === undefined)
      throw new AppError('internal', `FakeEngine has no output for call ${callIndex}.`);
    if (next instanceof Error) throw next;
    for (let i = 0; i < next.length; i += 7) {
      await Promise.resolve();
      if (request.signal?.aborted) throw new AppError('cancelled', 'Generation was cancelled.');
      request.onDelta?.(next.slice(i, i + 7));
    }
    return {
      text: next,
      finishReason: 'stop',
      promptTokens: prompt,
      completionTokens: this.tok.count(next),
      ...(cached !== undefined ? { cachedTokens: cached } : {}),
    };
  }

  /** Tokens of the leading messages `messages` has in common with the previous request. */
  private sharedPrefix(messages: readonly ChatTurn[]): Tokens {
    return messages
      .slice(0, commonMessagePrefix(this.previous, messages))
      .reduce((sum, m) => sum + this.tok.countMessage(m.role, m.content), 0);
  }

  interrupt(): Promise<void> {
    return Promise.resolve();
  }

  contextWindow(): Tokens {
    return this.window;
  }

  tokenizer(): Promise<Tokenizer> {
    return Promise.resolve(this.tok);
  }
}
