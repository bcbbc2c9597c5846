import type { ContextStrategy } from '../context/strategy';
import type { StrategyName } from '../model';
import type { Clock, IdSource } from '../ports/clock';
import type { LlmEngine } from '../ports/llm-engine';
import type { MemorySearch } from '../ports/memory-search';
import type { MemoryStore } from '../ports/memory-store';
import type { Tokenizer } from '../ports/tokenizer';
import type { TurnLock } from '../ports/turn-lock';
import type { ToolRegistry } from '../tools/tool-registry';
import type { EpochMs } from '../units';

/** Everything a turn reaches the world through (ports only). */
export interface AgentDeps {
  store: MemoryStore;
  search: MemorySearch;
  engine: LlmEngine;
  clock: Clock;
  ids: IdSource;
  /** Defaults to `engine.tokenizer()`. */
  tokenizer?: Tokenizer;
  /** Strategies by name; `memgpt` is built in, the others come from `src/core/strategies`. */
  strategies?: Partial<Record<StrategyName, ContextStrategy>>;
  /** Defaults to the seven memory tools. */
  tools?: ToolRegistry;
  /** Single-tab execution (A16); without one, the caller guarantees it. */
  lock?: TurnLock;
  /** Gap after which a user message is preceded by a session-start event (default 1 day). */
  sessionGapMs?: EpochMs;
}
