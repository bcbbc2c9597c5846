/**
 * The agent loop (A1–A10, seed paper §2.3): one turn = the trigger stored first, automatic
 * recall, then steps — plan the context (queue manager included), one constrained model call,
 * parse + validate, run the tool, commit its effect with the step record and messages in one
 * transaction — chained by `request_heartbeat` until a stop reason. It never throws: faults
 * end the turn with `error` and the AppError recorded (A10).
 */
import { createMemgptStrategy } from '../strategies/memgpt';
import type { ContextStrategy } from '../context/strategy';
import { createForgettingStrategy } from '../strategies/forgetting/forgetting-strategy';
import { createRecencyStrategy } from '../strategies/recency';
import { createWindowStrategy } from '../strategies/window';
import type { TokenCache } from '../context/plan-context';
import { AppError } from '../errors';
import {
  conversationOf,
  type Agent,
  type AgentId,
  type ConversationId,
  type StopReason,
  type StrategyName,
  type TurnRecord,
  type UntrustedRead,
} from '../model';
import type { Tokenizer } from '../ports/tokenizer';
import type { Tokens } from '../units';
import { createToolRegistry } from '../tools/tool-registry';
import type { AgentDeps } from './agent-deps';
import { autoRecall } from './auto-recall';
import { CANCELLED, orCancelled } from './or-cancelled';
import { executeStep } from './execute-step';
import { prepareContext } from './prepare-context';
import { startTurn } from './start-turn';
import { conversationNamer } from '../prompts/render-context';
import { turnConversation } from './turn-conversation';
import type { TurnEvent, TurnOutcome, TurnTrigger } from './turn-events';

export interface RunTurnOptions {
  /**
   * The conversation the turn runs in (A22); absent: the agent's most recent one. A retry runs
   * in its trigger's conversation whatever this says.
   */
  conversationId?: ConversationId;
  signal?: AbortSignal;
  onEvent?: (event: TurnEvent) => void;
  /**
   * At most this many tokens of automatic recall in this turn's prompts ("Fast replies", A44):
   * the agent's own recall budget is kept when smaller, and nothing is stored.
   */
  recallCap?: Tokens;
}

/** `agent` for this turn only, its recall budget no larger than `cap` (A44). */
function withRecallCap(agent: Agent, cap: Tokens | undefined): Agent {
  if (cap === undefined || cap >= agent.budgets.recallBudget) return agent;
  return { ...agent, budgets: { ...agent.budgets, recallBudget: Math.max(0, Math.floor(cap)) } };
}

/** The built-in strategies by name; `deps.strategies` overrides any of them. */
function builtInStrategy(name: StrategyName): ContextStrategy {
  switch (name) {
    case 'memgpt':
      return createMemgptStrategy();
    case 'window':
      return createWindowStrategy();
    case 'recency':
      return createRecencyStrategy();
    case 'forgetting':
      return createForgettingStrategy();
  }
}

/**
 * Runs one turn of `agentId` from `trigger` and resolves how it ended; never rejects (A10). The
 * queue, its eviction and its summary are the conversation's; core memory, archival memory and
 * recall search are the agent's (A22).
 * Events go to `options.onEvent` as they happen; `options.signal` cancels (A5).
 */
export async function runTurn(
  deps: AgentDeps,
  agentId: AgentId,
  trigger: TurnTrigger,
  options: RunTurnOptions = {},
): Promise<TurnOutcome> {
  const { store, clock } = deps;
  const emit = (event: TurnEvent) => options.onEvent?.(event);
  const replies: string[] = [];
  let turn: TurnRecord | null = null;
  let release: (() => void | Promise<void>) | null = null;
  let steps = 0;

  const stop = async (
    stopReason: StopReason,
    error?: AppError,
    committed = false,
  ): Promise<TurnOutcome> => {
    const wire = error?.toWire();
    if (turn && !committed) {
      const done: TurnRecord = { ...turn, status: 'done', steps, stopReason, endedAt: clock.now() };
      if (wire) done.error = `${wire.code}: ${wire.message}`;
      try {
        await store.apply({ turns: [done] });
      } catch (writeError) {
        // The turn stays `running`; recoverInterruptedTurns marks it interrupted on next open (A15).
        const code = AppError.from(writeError).code;
        emit({
          type: 'turn.stopped',
          turnId: turn.id,
          stopReason: 'error',
          steps,
          error: { code, message: 'The end of the turn could not be saved.' },
          at: clock.now(),
        });
        return {
          turnId: turn.id,
          stopReason: 'error',
          steps,
          replies,
          error: { code, message: 'The end of the turn could not be saved.' },
        };
      }
    }
    emit({
      type: 'turn.stopped',
      turnId: turn?.id ?? null,
      stopReason,
      steps,
      ...(wire ? { error: wire } : {}),
      at: clock.now(),
    });
    return {
      turnId: turn?.id ?? null,
      stopReason,
      steps,
      replies,
      ...(wire ? { error: wire } : {}),
    };
  };

  try {
    if (deps.lock) {
      release = await deps.lock.acquire(agentId);
      if (!release)
        return await stop(
          'error',
          new AppError('agent_busy', 'This agent is running in another tab.'),
        );
    }
    const stored: Agent | undefined = await store.getAgent(agentId);
    const agent = stored && withRecallCap(stored, options.recallCap);
    if (!agent) return await stop('error', new AppError('not_found', `No agent ${agentId}.`));
    const tokenizer: Tokenizer = deps.tokenizer ?? (await deps.engine.tokenizer());
    const requested =
      trigger.type === 'retry' || trigger.type === 'continue'
        ? undefined
        : await turnConversation(store, agentId, options.conversationId);
    const started = await startTurn(deps, agent, trigger, tokenizer, requested, options.signal);
    turn = started.turn;
    const conversationId = conversationOf(started.trigger);
    emit({
      type: 'turn.started',
      turnId: turn.id,
      triggerMessageId: started.trigger.id,
      at: turn.startedAt,
    });

    const strategy = deps.strategies?.[agent.strategy] ?? builtInStrategy(agent.strategy);
    const registry = deps.tools ?? createToolRegistry();
    const window = deps.engine.contextWindow();
    const tokenCache: TokenCache = new Map();
    const query = started.trigger.text;
    const [queue, conversations] = await Promise.all([
      store.queryMessages(agentId, { inContext: true, conversationId }),
      store.listConversations(agentId),
    ]);
    const recalled = await orCancelled(
      autoRecall({
        agent,
        search: deps.search,
        query,
        queue,
        documentTitle: async (id) => (await store.getDocument(id))?.title,
        coreMemory: (await store.listBlocks(agentId)).map((b) => b.value),
        conversationOf: conversationNamer(conversations, conversationId),
      }),
      options.signal,
    );
    if (recalled === CANCELLED) return await stop('cancelled');
    const candidates = recalled;
    let invalidRun = 0;
    // Document passages read in this turn, newest first: edits after them are marked (C15).
    const untrusted: UntrustedRead[] = [];

    for (;;) {
      if (options.signal?.aborted) return await stop('cancelled');
      if (steps >= agent.budgets.maxSteps) return await stop('max_steps');
      const prepared = await prepareContext({
        deps,
        agent,
        conversationId,
        turnId: turn.id,
        tokenizer,
        strategy,
        registry,
        window,
        query,
        candidates,
        tokenCache,
        signal: options.signal,
        onFlush: (result) => {
          if (turn) emit({ type: 'summary.created', turnId: turn.id, ...result });
        },
      });
      if (!prepared.ok) {
        const p = prepared.error;
        const detail =
          p.type === 'fixed_sections_exceed_window'
            ? `${p.fixed} fixed tokens > ${p.window}`
            : `message ${p.tokens} tokens > ${p.budget}`;
        return await stop(
          'context_overflow',
          new AppError('context_window_exceeded', `The context cannot fit: ${detail}.`, p),
        );
      }
      steps += 1;
      emit({
        type: 'context.planned',
        turnId: turn.id,
        step: steps,
        plan: prepared.value.plan,
        pressure: prepared.value.pressure,
        prefixCache: deps.engine.prefixCache ?? false,
        model: deps.engine.modelId,
      });
      const result = await executeStep({
        deps,
        agent,
        conversationId,
        turn,
        step: steps,
        tokenizer,
        registry,
        prepared: prepared.value,
        invalidRun,
        untrusted,
        // The first reply of a Continue goes on from the cut one (A41).
        ...(trigger.type === 'continue' && replies.length === 0
          ? { continues: trigger.messageId }
          : {}),
        signal: options.signal,
        emit,
      });
      turn = result.turn;
      invalidRun = result.invalidRun;
      if (result.reply !== undefined) replies.push(result.reply);
      if (result.stopReason) return await stop(result.stopReason, undefined, true);
    }
  } catch (error) {
    const fault = AppError.from(error);
    return await stop(
      fault.code === 'cancelled' || options.signal?.aborted ? 'cancelled' : 'error',
      fault,
    );
  } finally {
    if (release) await release();
  }
}
