/**
 * A ready agent over the in-memory fakes, for agent-loop tests: store, search, fake engine with
 * a prompt-reading rule, fixed clock, counter ids, and helpers to write steps and read prompts.
 */
import type { AgentDeps } from '../core/agent/agent-deps';
import { createAgentRecord } from '../core/agent/create-agent-record';
import type { Agent, ContextBudgets } from '../core/model';
import type { CompletionRequest, ChatTurn } from '../core/ports/llm-engine';
import type { Tokenizer } from '../core/ports/tokenizer';
import { createEstimateTokenizer } from '../core/tokens/estimate-tokenizer';
import type { Tokens } from '../core/units';
import { CounterIds } from './counter-ids';
import { FakeEngine, type EngineRule } from './fake-engine';
import { FixedClock } from './fixed-clock';
import { InMemorySearch } from './in-memory-search';
import { InMemoryStore } from './in-memory-store';
import { MEMORIES_HEADER, MESSAGE_AFTER_MEMORIES } from '../core/prompts/render-context';

export interface AgentFixture {
  agent: Agent;
  store: InMemoryStore;
  search: InMemorySearch;
  engine: FakeEngine;
  clock: FixedClock;
  ids: CounterIds;
  tokenizer: Tokenizer;
  deps: AgentDeps;
}

export interface FixtureOptions {
  rule?: EngineRule;
  outputs?: (string | Error)[];
  window?: Tokens;
  budgets?: Partial<ContextBudgets>;
  autoRecall?: boolean;
  human?: string;
  tokenizer?: Tokenizer;
  /** Whether the engine reports a common-prefix cache (C26). */
  prefixCache?: boolean;
}

export async function createAgentFixture(options: FixtureOptions = {}): Promise<AgentFixture> {
  const store = new InMemoryStore();
  const search = new InMemorySearch(store);
  const tokenizer = options.tokenizer ?? createEstimateTokenizer();
  const window = options.window ?? 4096;
  const engine = new FakeEngine({
    rule: options.rule,
    outputs: options.outputs,
    prefixCache: options.prefixCache ?? false,
    contextWindow: window,
    tokenizer,
  });
  const clock = new FixedClock(Date.UTC(2026, 0, 1, 9, 0, 0), 1000);
  const ids = new CounterIds();
  const created = createAgentRecord({
    id: 'agent-1',
    name: 'Loci',
    now: clock.now(),
    window,
    human: options.human,
  });
  const agent: Agent = {
    ...created.agent,
    autoRecall: options.autoRecall ?? true,
    budgets: { ...created.agent.budgets, ...options.budgets },
  };
  await store.apply({ ...created.changes, agents: [agent] });
  return {
    agent,
    store,
    search,
    engine,
    clock,
    ids,
    tokenizer,
    deps: { store, search, engine, clock, ids, tokenizer },
  };
}

/** One step as the model would write it. */
export function step(
  fn: string,
  args: Record<string, unknown>,
  heartbeat = false,
  thinking = 'ok',
): string {
  return JSON.stringify({ thinking, function: fn, arguments: args, request_heartbeat: heartbeat });
}

export const reply = (message: string): string => step('send_message', { message });

/** The last turn of a prompt. */
export function lastTurn(request: CompletionRequest): ChatTurn {
  const turn = request.messages[request.messages.length - 1];
  if (!turn) throw new Error('empty prompt');
  return turn;
}

/** A user turn's own text, without the memories merged in front of it (C17). */
function withoutMemories(content: string): string {
  const mark = `\n${MESSAGE_AFTER_MEMORIES}\n`;
  const at = content.startsWith(MEMORIES_HEADER) ? content.lastIndexOf(mark) : -1;
  return at >= 0 ? content.slice(at + mark.length) : content;
}

/**
 * The text of the newest real user message in a prompt (not a tool result or event), without
 * the memories merged in front of it (C17).
 */
export function lastUserText(request: CompletionRequest): string {
  for (let i = request.messages.length - 1; i >= 0; i -= 1) {
    const turn = request.messages[i] as ChatTurn;
    const text = withoutMemories(turn.content);
    if (turn.role === 'user' && !text.startsWith('[')) return text;
  }
  return '';
}

/** True when the prompt's last turn is a tool result (the model is mid-chain). */
export function afterTool(request: CompletionRequest, tool?: string): boolean {
  const content = lastTurn(request).content;
  return tool ? content.startsWith(`[result of ${tool}]`) : content.startsWith('[result of');
}

export function systemText(request: CompletionRequest): string {
  return request.messages[0]?.content ?? '';
}

/**
 * The newest relevant-memories section of a prompt (its own turn, or merged in front of the
 * message it was recalled for, C17), or ''.
 */
export function memoriesText(request: CompletionRequest): string {
  const turn = [...request.messages].reverse().find((m) => m.content.startsWith(MEMORIES_HEADER));
  if (!turn) return '';
  const at = turn.content.lastIndexOf(`\n${MESSAGE_AFTER_MEMORIES}\n`);
  return at >= 0 ? turn.content.slice(0, at) : turn.content;
}
