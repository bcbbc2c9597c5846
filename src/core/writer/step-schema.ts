/**
 * The JSON schemas of a writing step and of a human-simulator step, and the validation of the
 * model's answer (lane 2: a bad answer becomes one sentence of feedback for a retry). The
 * schema constrains decoding in web-llm's JSON mode; validation still runs, because a
 * generation cut off at `maxTokens` or an engine without grammar can return anything.
 */
import type { JsonSchema } from '../ports/llm-engine';
import type { Tokenizer } from '../ports/tokenizer';
import type { Tokens } from '../units';

/** Exactly three candidate plans per step (seed 000 uses three). */
export const PLAN_COUNT = 3;

/**
 * The plans are three required keys rather than an array: a grammar enforces "exactly three"
 * through required properties on any JSON-schema engine, with no reliance on `minItems`.
 */
export const PLAN_KEYS = ['plan_1', 'plan_2', 'plan_3'] as const;

const text = { type: 'string' } as const;

export const WRITER_STEP_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    section: text,
    memory_removed: text,
    memory_added: text,
    memory: text,
    plan_1: text,
    plan_2: text,
    plan_3: text,
  },
  required: ['section', 'memory_removed', 'memory_added', 'memory', ...PLAN_KEYS],
  additionalProperties: false,
};

export const HUMAN_SIMULATOR_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    choice: { type: 'integer', enum: [1, 2, 3] },
    reason: text,
    plan: text,
  },
  required: ['choice', 'reason', 'plan'],
  additionalProperties: false,
};

/** A validated writing step. */
export interface WriterStepOutput {
  section: string;
  memoryRemoved: string;
  memoryAdded: string;
  memory: string;
  plans: string[];
  /** True when the memory was over its bound on the last attempt and was clipped. */
  memoryClipped: boolean;
}

/** A validated human-simulator step; `choice` is 1-based as the model wrote it. */
export interface SimulatorOutput {
  choice: 1 | 2 | 3;
  reason: string;
  plan: string;
}

/**
 * The outcome of checking one answer: a value, or a feedback sentence — optionally with a
 * usable `fallback` to accept when no attempts are left.
 */
export type Checked<T> = { ok: true; value: T } | { ok: false; feedback: string; fallback?: T };

function parseObject(raw: string): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return `It was not valid JSON (${error instanceof Error ? error.message : String(error)}).`;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'It was not a JSON object.';
  }
  return value as Record<string, unknown>;
}

const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/** Keeps the leading sentences of `memory` that fit `maxTokens`. */
export function clipMemory(memory: string, tokenizer: Tokenizer, maxTokens: Tokens): string {
  const sentences = memory.match(/[^.!?。！？]+[.!?。！？]*\s*/gu) ?? [memory];
  let out = '';
  for (const sentence of sentences) {
    if (tokenizer.count(out + sentence) > maxTokens) break;
    out += sentence;
  }
  return out.trim();
}

/** Validates a writing step; the memory must fit `memoryMaxTokens`. */
export function checkWriterStep(
  raw: string,
  tokenizer: Tokenizer,
  memoryMaxTokens: Tokens,
): Checked<WriterStepOutput> {
  const obj = parseObject(raw);
  if (typeof obj === 'string') return { ok: false, feedback: obj };
  if (!nonEmpty(obj.section)) return { ok: false, feedback: '"section" must be non-empty text.' };
  if (!nonEmpty(obj.memory)) return { ok: false, feedback: '"memory" must be non-empty text.' };
  if (typeof obj.memory_removed !== 'string' || typeof obj.memory_added !== 'string') {
    return { ok: false, feedback: '"memory_removed" and "memory_added" must be text.' };
  }
  const plans = PLAN_KEYS.map((key) => obj[key]);
  if (!plans.every(nonEmpty)) {
    return { ok: false, feedback: '"plan_1", "plan_2" and "plan_3" must each be non-empty text.' };
  }
  const trimmed = plans.map((p) => p.trim());
  if (new Set(trimmed).size !== PLAN_COUNT) {
    return { ok: false, feedback: `The ${PLAN_COUNT} plans must be different from each other.` };
  }
  const value: WriterStepOutput = {
    section: obj.section.trim(),
    memoryRemoved: obj.memory_removed.trim(),
    memoryAdded: obj.memory_added.trim(),
    memory: obj.memory.trim(),
    plans: trimmed,
    memoryClipped: false,
  };
  const memoryTokens = tokenizer.count(value.memory);
  if (memoryTokens > memoryMaxTokens) {
    return {
      ok: false,
      feedback: `"memory" has ${memoryTokens} tokens; keep it under ${memoryMaxTokens} by dropping the least important sentences.`,
      fallback: {
        ...value,
        memory: clipMemory(value.memory, tokenizer, memoryMaxTokens),
        memoryClipped: true,
      },
    };
  }
  return { ok: true, value };
}

/** Validates a human-simulator step. */
export function checkSimulatorStep(raw: string): Checked<SimulatorOutput> {
  const obj = parseObject(raw);
  if (typeof obj === 'string') return { ok: false, feedback: obj };
  if (obj.choice !== 1 && obj.choice !== 2 && obj.choice !== 3) {
    return { ok: false, feedback: '"choice" must be 1, 2 or 3.' };
  }
  if (!nonEmpty(obj.plan)) return { ok: false, feedback: '"plan" must be non-empty text.' };
  return {
    ok: true,
    value: {
      choice: obj.choice,
      reason: typeof obj.reason === 'string' ? obj.reason.trim() : '',
      plan: obj.plan.trim(),
    },
  };
}
