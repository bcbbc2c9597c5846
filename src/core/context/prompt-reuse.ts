/**
 * Which part of a request an engine already holds from the request before it (C18, ADR 0103,
 * ADR 0207). The planner asks the engine how it reuses a prefix ({@link LlmEngine.prefixCache})
 * and applies that way's rule ({@link continuesConversation} or {@link commonMessagePrefix}). The
 * reply as generated is the assistant turn that follows the previous request in this one. The
 * memory panel shows the result: "this step read N new tokens and reused M from the step before".
 */
import type { ChatTurn, LlmEngine } from '../ports/llm-engine';
import type { Tokens } from '../units';
import type { ContextPlan, PromptReuse } from './plan-context';
import {
  commonMessagePrefix,
  continuesConversation,
  heldConversation,
  type EngineExchange,
} from './prefix-reuse';

type Planned = Pick<ContextPlan, 'prompt' | 'turnTokens' | 'total' | 'sections'>;

/** The previous request as the engine received it, with the reply this request carries. */
function exchangeBefore(previous: Planned, prompt: readonly ChatTurn[]): EngineExchange | null {
  const reply = prompt[previous.prompt.length];
  return reply?.role === 'assistant'
    ? { messages: previous.prompt, output: reply.content, finishReason: 'stop' }
    : null;
}

/** Leading messages of `plan` the engine holds after `previous` (never the last one). */
function keptMessages(previous: Planned | null, plan: Planned, prefixCache: boolean): number {
  if (previous === null) return 0;
  const exchange = exchangeBefore(previous, plan.prompt);
  const last = plan.prompt.length - 1;
  if (!prefixCache) return continuesConversation(exchange, plan.prompt) ? last : 0;
  const held = exchange ? heldConversation(exchange) : previous.prompt;
  return Math.min(commonMessagePrefix(held, plan.prompt), last);
}

/**
 * What `plan`'s request reads new and keeps after `previous` (null: the first request), for an
 * engine that keeps a common prefix (`prefixCache`) or only a continued conversation.
 */
export function promptReuse(
  previous: Planned | null,
  plan: Planned,
  engine: Pick<LlmEngine, 'prefixCache'> = {},
): PromptReuse {
  const prompt = plan.total - plan.sections.reserve;
  const kept = plan.turnTokens ? keptMessages(previous, plan, engine.prefixCache ?? false) : 0;
  if (kept === 0 || !plan.turnTokens) return { fresh: prompt, kept: 0 };
  const keptTokens: Tokens = plan.turnTokens.slice(0, kept).reduce((sum, t) => sum + t, 0);
  return { fresh: prompt - keptTokens, kept: keptTokens };
}
