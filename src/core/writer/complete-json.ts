/**
 * One schema-constrained model call with bounded retries (lane 2 of the house style): an
 * answer that fails validation is fed back as one sentence and the call is repeated, up to
 * `maxAttempts`; then the call fails with `schema_violation` carrying every attempt's reason.
 * A cut-off answer (`finishReason: 'length'`) is reported as such.
 */
import { AppError } from '../errors';
import type { ChatTurn, JsonSchema, LlmEngine } from '../ports/llm-engine';
import type { Tokens } from '../units';
import type { Checked } from './step-schema';

export interface JsonCall<T> {
  engine: LlmEngine;
  schema: JsonSchema;
  maxTokens: Tokens;
  maxAttempts: number;
  /** The prompt; `feedback` is set on a retry. */
  prompt: (feedback: string | undefined) => ChatTurn[];
  check: (raw: string) => Checked<T>;
  temperature?: number;
  signal?: AbortSignal;
  onDelta?: (delta: string) => void;
}

/** The accepted value and how many calls it took. */
export interface JsonAnswer<T> {
  value: T;
  attempts: number;
  raw: string;
}

/** Runs the call; rejects with `schema_violation` after `maxAttempts` bad answers. */
export async function completeJson<T>(call: JsonCall<T>): Promise<JsonAnswer<T>> {
  const attempts = Math.max(1, Math.floor(call.maxAttempts));
  const reasons: string[] = [];
  let feedback: string | undefined;
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    const result = await call.engine.complete({
      messages: call.prompt(feedback),
      maxTokens: call.maxTokens,
      jsonSchema: call.schema,
      ...(call.temperature === undefined ? {} : { temperature: call.temperature }),
      ...(call.signal === undefined ? {} : { signal: call.signal }),
      ...(call.onDelta === undefined ? {} : { onDelta: call.onDelta }),
    });
    const checked = call.check(result.text);
    if (checked.ok) return { value: checked.value, attempts: attempt, raw: result.text };
    feedback =
      result.finishReason === 'length'
        ? 'It was cut off before the JSON object ended; write less so it fits.'
        : checked.feedback;
    reasons.push(feedback);
    if (attempt === attempts && checked.fallback !== undefined) {
      return { value: checked.fallback, attempts: attempt, raw: result.text };
    }
  }
  throw new AppError(
    'schema_violation',
    `The model gave no valid answer in ${attempts} attempts: ${reasons[reasons.length - 1] ?? ''}`,
    { reasons },
  );
}
