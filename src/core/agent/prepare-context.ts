/**
 * Plans one step's context and runs the queue manager on it (C6–C8): a flush when the queue no
 * longer fits, else one memory-pressure alert per crossing of the warning line, then the final
 * plan. Reads only the in-context queue, the blocks and the latest summary.
 */
import {
  planContext,
  reservedRecall,
  type ContextPlan,
  type PlanProblem,
  type TokenCache,
} from '../context/plan-context';
import {
  assessPressure,
  flushQueue,
  isMemoryPressureAlert,
  MEMORY_PRESSURE,
  type FlushResult,
  type Pressure,
} from '../context/queue-manager';
import type { ContextMemory, ContextStrategy } from '../context/strategy';
import type { Agent, ConversationId, CoreBlock, TurnId } from '../model';
import type { Tokenizer } from '../ports/tokenizer';
import { memoryPressureText } from '../prompts/event-copy';
import type { Result } from '../result';
import { strategyStateKey } from '../strategies/strategy-state-key';
import type { ToolRegistry } from '../tools/tool-registry';
import type { ToolSpec } from '../tools/tool';
import type { Tokens } from '../units';
import type { AgentDeps } from './agent-deps';
import { newMessage } from './store-message';

/** Messages other strategies may draw from (they keep no queue, so they get the newest). */
export const STRATEGY_HISTORY_MESSAGES = 400;

export interface PrepareInput {
  deps: AgentDeps;
  agent: Agent;
  /** The turn's conversation: its queue, its summary, its strategy state (A22). */
  conversationId: ConversationId;
  turnId: TurnId;
  tokenizer: Tokenizer;
  strategy: ContextStrategy;
  registry: ToolRegistry;
  window: Tokens;
  query: string;
  candidates: readonly ContextMemory[];
  tokenCache: TokenCache;
  signal?: AbortSignal;
  onFlush: (result: FlushResult) => void;
}

export interface Prepared {
  plan: ContextPlan;
  pressure: Pressure;
  blocks: CoreBlock[];
  specs: ToolSpec[];
}

async function planOnce(input: PrepareInput) {
  const { store } = input.deps;
  const memgpt = input.strategy.name === 'memgpt';
  const conversationId = input.conversationId;
  const stateKey = strategyStateKey(input.agent.id, input.strategy.name, conversationId);
  const [queue, blocks, summary, state] = await Promise.all([
    memgpt
      ? store.queryMessages(input.agent.id, { inContext: true, conversationId })
      : store
          .queryMessages(input.agent.id, {
            conversationId,
            reverse: true,
            limit: STRATEGY_HISTORY_MESSAGES,
          })
          .then((newest) => newest.reverse()),
    store.listBlocks(input.agent.id),
    memgpt ? store.latestSummary(input.agent.id, conversationId) : Promise.resolve(undefined),
    // memgpt's state is the memories kept merged into queued messages (C17).
    store.getSetting<unknown>(stateKey),
  ]);
  const specs = input.registry.specs(blocks);
  const inQueue = new Set(queue.map((m) => m.id));
  const plan = await planContext({
    agent: input.agent,
    blocks,
    summary,
    history: queue,
    candidates: input.candidates.filter((c) => !inQueue.has(c.id)),
    tools: specs,
    strategy: input.strategy,
    strategyState: state,
    tokenizer: input.tokenizer,
    window: input.window,
    query: input.query,
    now: input.deps.clock.now(),
    tokenCache: input.tokenCache,
  });
  const next = plan.ok ? plan.value.strategyState : undefined;
  // A strategy returns the very state it was given when the step changed nothing: then there is
  // nothing to compare or write (X169; the forgetting state was rewritten whole every step).
  if (next !== undefined && next !== state) {
    // Compare and set: the state is written only if nobody changed it while this plan was made
    // (a pin or "forget now" from the memory panel); otherwise the plan is made again from it.
    let stale = false;
    await store.updateSetting<unknown>(stateKey, (current) => {
      if (sameState(current, state)) return next;
      stale = true;
      return current;
    });
    if (stale) return { plan, queue, blocks, specs, summary, stale: true };
  }
  return { plan, queue, blocks, specs, summary, stale: false };
}

function sameState(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** How often a plan is made again when the strategy state keeps changing under it. */
const STATE_RETRIES = 3;

/**
 * Plans, and plans again from the newer state when the user changed the strategy state while the
 * plan was made (F10). After `STATE_RETRIES` tries the last plan is used and the user's state
 * stays as they left it.
 */
async function planFresh(input: PrepareInput) {
  let round = await planOnce(input);
  for (let attempt = 1; round.stale && attempt < STATE_RETRIES; attempt += 1) {
    round = await planOnce(input);
  }
  return round;
}

/** The plan of the next step, after any flush or pressure alert it called for (C6–C8). */
export async function prepareContext(input: PrepareInput): Promise<Result<Prepared, PlanProblem>> {
  const { deps, agent } = input;
  let round = await planFresh(input);
  if (!round.plan.ok) return round.plan;
  let pressure = assessPressure(round.plan.value, agent.budgets);
  const memgpt = input.strategy.name === 'memgpt';
  // A turn that jumps past the warning line straight to a flush the queue itself does not need
  // yet (only the room held for recall is short) is warned first and flushes a turn later: the
  // model always has one turn to save what matters (C7, ADR 0203).
  if (
    memgpt &&
    pressure === 'flush' &&
    !round.queue.some(isMemoryPressureAlert) &&
    assessPressure(
      {
        ...round.plan.value,
        demand: round.plan.value.demand - reservedRecall(agent, input.strategy.name),
      },
      agent.budgets,
    ) !== 'flush'
  ) {
    pressure = 'warning';
  }
  if (memgpt && pressure === 'flush' && round.plan.value.evictableIds.length > 0) {
    const result = await flushQueue({
      agent,
      conversationId: input.conversationId,
      store: deps.store,
      engine: deps.engine,
      tokenizer: input.tokenizer,
      clock: deps.clock,
      ids: deps.ids,
      window: input.window,
      queue: round.queue,
      evictIds: round.plan.value.evictableIds,
      previous: round.summary,
      // An engine that keeps a common prefix holds the agent's system message across the flush
      // when the summary request opens with it too (C26); web-llm would only read it again.
      ...(deps.engine.prefixCache && round.plan.value.prompt[0]?.role === 'system'
        ? { agentSystem: round.plan.value.prompt[0].content }
        : {}),
      signal: input.signal,
    });
    input.onFlush(result);
    round = await planFresh(input);
    if (!round.plan.ok) return round.plan;
    pressure = assessPressure(round.plan.value, agent.budgets);
  } else if (memgpt && pressure !== 'ok' && !round.queue.some(isMemoryPressureAlert)) {
    // One alert per crossing: an alert still in the queue means this crossing was announced (C7).
    const percent = Math.round(
      ((round.plan.value.demand - agent.budgets.replyReserve) / input.window) * 100,
    );
    const alert = newMessage(
      {
        id: deps.ids.next('msg'),
        agentId: agent.id,
        conversationId: input.conversationId,
        role: 'event',
        speaker: MEMORY_PRESSURE,
        text: memoryPressureText(percent),
        turnId: input.turnId,
        at: deps.clock.now(),
      },
      input.tokenizer,
    );
    const applied = await deps.store.apply({ messages: [alert] });
    await deps.search.indexMessages(applied.messages);
    round = await planFresh(input);
    if (!round.plan.ok) return round.plan;
    pressure = assessPressure(round.plan.value, agent.budgets);
  }
  return {
    ok: true,
    value: { plan: round.plan.value, pressure, blocks: round.blocks, specs: round.specs },
  };
}
