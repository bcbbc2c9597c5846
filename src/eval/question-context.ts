/**
 * The context half of the memory evaluation (V7–V10): the prompt a strategy would assemble if
 * the question were the next user message after the whole conversation. No LLM runs: core
 * blocks are empty, and `memgpt`'s queue is replayed turn by turn through the real planner and
 * queue-manager rules, each flush folding the evicted messages into the extractive summary.
 * `budget` is what the strategy may spend on conversation (summary, memories, messages); the
 * window is that plus the fixed sections (system, tools, empty core) and the reply reserve
 * (ADR 0070).
 */
import { autoRecall } from '../core/agent/auto-recall';
import { STRATEGY_HISTORY_MESSAGES } from '../core/agent/prepare-context';
import { createMemgptStrategy } from '../core/strategies/memgpt';
import { defaultBudgets } from '../core/context/default-budgets';
import { planContext, type TokenCache } from '../core/context/plan-context';
import { assessPressure } from '../core/context/queue-manager';
import type { ContextStrategy } from '../core/context/strategy';
import type { Agent, Message, StrategyName, Summary } from '../core/model';
import type { MemorySearch } from '../core/ports/memory-search';
import type { Tokenizer } from '../core/ports/tokenizer';
import { createForgettingStrategy } from '../core/strategies/forgetting/forgetting-strategy';
import { createRecencyStrategy } from '../core/strategies/recency';
import { createWindowStrategy } from '../core/strategies/window';
import { extractiveSummary } from '../core/summary/extractive-summary';
import type { ToolSpec } from '../core/tools/tool';
import type { EpochMs, Tokens } from '../core/units';

export const EVAL_STRATEGIES: readonly StrategyName[] = [
  'memgpt',
  'forgetting',
  'recency',
  'window',
];

/** The strategy of `name`, configured as the app configures it. */
export function strategyByName(name: StrategyName): ContextStrategy {
  switch (name) {
    case 'memgpt':
      return createMemgptStrategy();
    case 'forgetting':
      return createForgettingStrategy();
    case 'recency':
      return createRecencyStrategy();
    case 'window':
      return createWindowStrategy();
  }
}

export interface ContextEvalSetup {
  /** The agent as replayed (its strategy field is ignored; budgets are set per window). */
  agent: Agent;
  /** The whole conversation, oldest first. */
  messages: readonly Message[];
  tokenizer: Tokenizer;
  search: MemorySearch;
  tools: readonly ToolSpec[];
}

/** One strategy at one budget, with its state after the whole conversation. */
export interface PreparedContext {
  strategy: StrategyName;
  budget: Tokens;
  window: Tokens;
  agent: Agent;
  /** What the strategy draws from (memgpt: the in-context queue after the replay). */
  history: Message[];
  summary?: Summary;
  state?: unknown;
  /** Flushes the replay performed (memgpt). */
  flushes: number;
  cache: TokenCache;
}

/** The assembled prompt for one question, or why none could be built. */
export interface QuestionPrompt {
  prompt: string;
  memories: number;
  messages: number;
  problem?: string;
}

async function fixedTokens(setup: ContextEvalSetup, agent: Agent): Promise<Tokens> {
  const dry = await planContext({
    agent,
    blocks: [],
    history: [],
    tools: setup.tools,
    strategy: createWindowStrategy(),
    tokenizer: setup.tokenizer,
    window: 1_000_000,
    query: '',
    now: agent.createdAt,
  });
  if (!dry.ok) return 0;
  const s = dry.value.sections;
  return s.system + s.tools + s.core + s.reserve;
}

/** The agent with default budgets for the window that leaves exactly `budget` for conversation. */
async function agentForBudget(
  setup: ContextEvalSetup,
  strategy: StrategyName,
  budget: Tokens,
): Promise<{ agent: Agent; window: Tokens }> {
  let window = budget * 2;
  let agent = setup.agent;
  // The reserve depends on the window and the window on the reserve: two rounds settle it.
  for (let i = 0; i < 3; i += 1) {
    agent = { ...setup.agent, strategy, persona: '', budgets: defaultBudgets(window) };
    window = (await fixedTokens(setup, agent)) + budget;
  }
  return { agent, window };
}

function summaryOf(
  previous: Summary | undefined,
  evicted: readonly Message[],
  agent: Agent,
  tokenizer: Tokenizer,
): Summary {
  const { text, fromSeq } = extractiveSummary({
    ...(previous ? { previous } : {}),
    messages: evicted,
    tokenizer,
    maxTokens: agent.budgets.summaryMaxTokens,
  });
  const last = evicted[evicted.length - 1];
  return {
    id: `summary-${(previous?.version ?? 0) + 1}`,
    agentId: agent.id,
    version: (previous?.version ?? 0) + 1,
    text,
    fromSeq,
    toSeq: last?.seq ?? previous?.toSeq ?? 0,
    method: 'extractive',
    at: last?.at ?? agent.createdAt,
    tokens: tokenizer.count(text),
  };
}

/** One turn of the memgpt queue manager: recall, plan, and flush (evict + summarize) when due (C8). */
async function memgptTurn(
  prepared: PreparedContext,
  setup: ContextEvalSetup,
  query: string,
  now: EpochMs,
): Promise<boolean> {
  // Automatic recall runs before every turn, so its memories count in the plan that decides a flush.
  const candidates = await autoRecall({
    agent: prepared.agent,
    search: setup.search,
    query,
    queue: prepared.history,
  });
  const plan = await planContext({
    candidates,
    agent: prepared.agent,
    blocks: [],
    summary: prepared.summary,
    history: prepared.history,
    tools: setup.tools,
    strategy: strategyByName('memgpt'),
    tokenizer: setup.tokenizer,
    window: prepared.window,
    query,
    now,
    tokenCache: prepared.cache,
  });
  const evictIds = plan.ok
    ? assessPressure(plan.value, prepared.agent.budgets) === 'flush'
      ? plan.value.evictableIds
      : []
    : prepared.history.slice(0, -1).map((m) => m.id);
  if (evictIds.length === 0) return false;
  const gone = new Set(evictIds);
  const evicted = prepared.history.filter((m) => gone.has(m.id));
  prepared.summary = summaryOf(prepared.summary, evicted, prepared.agent, setup.tokenizer);
  prepared.history = prepared.history.filter((m) => !gone.has(m.id));
  prepared.flushes += 1;
  return true;
}

/** Replays the conversation into `strategy` at `budget` (V9): the state a question meets. */
export async function prepareContext(
  setup: ContextEvalSetup,
  strategy: StrategyName,
  budget: Tokens,
): Promise<PreparedContext> {
  const { agent, window } = await agentForBudget(setup, strategy, budget);
  const prepared: PreparedContext = {
    strategy,
    budget,
    window,
    agent,
    history: [],
    flushes: 0,
    cache: new Map(),
  };
  if (strategy === 'memgpt') {
    for (const message of setup.messages) {
      prepared.history.push(message);
      // The queue manager runs when a turn starts, i.e. at each user message.
      if (message.role === 'user') await memgptTurn(prepared, setup, message.text, message.at);
    }
    return prepared;
  }
  // Strategies without a queue see the newest messages, as the agent loop gives them.
  const newest = (upTo: number) =>
    setup.messages.slice(Math.max(0, upTo - STRATEGY_HISTORY_MESSAGES), upTo);
  prepared.history = newest(setup.messages.length);
  if (strategy === 'forgetting') {
    // The forgetting curve moves once per round: run every round in order.
    const forgetting = strategyByName('forgetting');
    let state: unknown;
    for (let i = 0; i < setup.messages.length; i += 1) {
      const message = setup.messages[i] as Message;
      if (message.role !== 'user') continue;
      const out = await forgetting.select({
        agent,
        history: newest(i + 1),
        query: message.text,
        budget,
        tokenizer: setup.tokenizer,
        state,
        now: message.at,
      });
      state = out.state;
    }
    prepared.state = state;
  }
  return prepared;
}

/** Assembles the prompt for `question` as the next user message (V7). */
export async function questionPrompt(
  prepared: PreparedContext,
  setup: ContextEvalSetup,
  question: string,
): Promise<QuestionPrompt> {
  const last = setup.messages[setup.messages.length - 1];
  const now = ((last?.at ?? 0) + 60_000) as EpochMs;
  const asked: Message = {
    id: `question-${prepared.strategy}-${prepared.budget}`,
    agentId: prepared.agent.id,
    seq: (last?.seq ?? 0) + 1,
    role: 'user',
    text: question,
    at: now,
    inContext: true,
    tokens: 0,
  };
  // Per question, on a copy: one question must not change the state the next one meets.
  const run: PreparedContext = {
    ...prepared,
    history: [...prepared.history, asked],
    cache: prepared.cache,
  };
  run.cache.delete(asked.id);
  if (prepared.strategy === 'memgpt') await memgptTurn(run, setup, question, now);
  const candidates =
    prepared.strategy === 'memgpt'
      ? await autoRecall({
          agent: run.agent,
          search: setup.search,
          query: question,
          queue: run.history,
        })
      : [];
  const plan = await planContext({
    agent: run.agent,
    blocks: [],
    summary: run.summary,
    history: run.history,
    candidates,
    tools: setup.tools,
    strategy: strategyByName(prepared.strategy),
    strategyState: run.state,
    tokenizer: setup.tokenizer,
    window: run.window,
    query: question,
    now,
    tokenCache: run.cache,
  });
  if (!plan.ok) return { prompt: '', memories: 0, messages: 0, problem: plan.error.type };
  return {
    prompt: plan.value.prompt.map((turn) => turn.content).join('\n'),
    memories: plan.value.memories.length,
    messages: plan.value.messages.length,
  };
}
