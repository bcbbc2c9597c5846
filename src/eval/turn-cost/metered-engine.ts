/**
 * An {@link LlmEngine} that passes every call to another engine and records each request in a
 * {@link TurnCostMeter}: a JSON-schema request is a loop step, any other a summary request. A
 * reply that fails or is stopped is recorded as aborted with what had streamed (an engine cannot
 * continue from it).
 */
import type {
  CompletionRequest,
  CompletionResult,
  LlmEngine,
  LoadProgress,
} from '../../core/ports/llm-engine';
import type { Tokenizer } from '../../core/ports/tokenizer';
import type { Tokens } from '../../core/units';
import type { TurnCostMeter } from './turn-cost-meter';

export class MeteredEngine implements LlmEngine {
  constructor(
    private readonly inner: LlmEngine,
    readonly meter: TurnCostMeter,
  ) {}

  get modelId(): string | null {
    return this.inner.modelId;
  }

  get prefixCache(): boolean {
    return this.inner.prefixCache ?? false;
  }

  load(modelId: string, onProgress?: (p: LoadProgress) => void): Promise<void> {
    return this.inner.load(modelId, onProgress);
  }

  unload(): Promise<void> {
    return this.inner.unload();
  }

  interrupt(): Promise<void> {
    return this.inner.interrupt();
  }

  contextWindow(): Tokens {
    return this.inner.contextWindow();
  }

  tokenizer(): Promise<Tokenizer> {
    return this.inner.tokenizer();
  }

  async complete(request: CompletionRequest): Promise<CompletionResult> {
    const kind = request.jsonSchema ? 'step' : 'summary';
    const messages = request.messages.map((m) => ({ ...m }));
    let streamed = '';
    const onDelta = (delta: string) => {
      streamed += delta;
      request.onDelta?.(delta);
    };
    try {
      const result = await this.inner.complete({ ...request, onDelta });
      this.meter.record({
        kind,
        messages,
        output: result.text,
        finishReason: result.finishReason,
      });
      return result;
    } catch (error) {
      this.meter.record({ kind, messages, output: streamed, finishReason: 'abort' });
      throw error;
    }
  }
}
