/**
 * What the writing mode needs from outside, as narrow slices of the ports (so a test passes
 * small fakes and the app passes the Dexie store and the memory search), and its options.
 */
import type { Clock, IdSource } from '../ports/clock';
import type { LlmEngine } from '../ports/llm-engine';
import type { MemorySearch } from '../ports/memory-search';
import type { MemoryStore } from '../ports/memory-store';
import type { Tokens } from '../units';
import type { PromptLengths } from './prompts';
import { DEFAULT_PROMPT_LENGTHS } from './prompts';

export interface WriterDeps {
  engine: LlmEngine;
  store: Pick<MemoryStore, 'apply' | 'getSetting' | 'setSetting'>;
  /**
   * The agent's indexes must be loaded (`MemorySearch.loadAgent(agent.id)`) before the first
   * step; the search ignores passages of any other agent.
   */
  search: Pick<MemorySearch, 'search' | 'indexPassages' | 'removePassages'>;
  clock: Clock;
  ids: IdSource;
}

export interface WriterOptions {
  /** Reply reserve of a step (section + memory + three plans). */
  maxTokens?: Tokens;
  /** Bound of the short-term memory, in tokens. */
  memoryMaxTokens?: Tokens;
  /** Model calls per step before `schema_violation` (lane 2 retries). */
  maxAttempts?: number;
  /** Long-term passages retrieved by the plan. */
  longTermPassages?: number;
  lengths?: PromptLengths;
  temperature?: number;
  signal?: AbortSignal;
  /** Streams the raw JSON as it is generated. */
  onDelta?: (delta: string) => void;
}

/** Options with every default filled in. */
export type ResolvedWriterOptions = Required<
  Omit<WriterOptions, 'temperature' | 'signal' | 'onDelta'>
> &
  Pick<WriterOptions, 'temperature' | 'signal' | 'onDelta'>;

/**
 * Defaults sized for a 4k window: ~1.2k tokens of reply (a 12-sentence section ≈ 350–500
 * tokens, memory ≤ 320, three plans ≈ 250, the two "why" notes ≈ 100) leaves ~2.8k for the
 * prompt; three passages of long-term memory; three attempts per step.
 */
export function resolveWriterOptions(options: WriterOptions = {}): ResolvedWriterOptions {
  return {
    maxTokens: options.maxTokens ?? 1280,
    memoryMaxTokens: options.memoryMaxTokens ?? 320,
    maxAttempts: options.maxAttempts ?? 3,
    longTermPassages: options.longTermPassages ?? 3,
    lengths: options.lengths ?? DEFAULT_PROMPT_LENGTHS,
    ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.onDelta === undefined ? {} : { onDelta: options.onDelta }),
  };
}
