/**
 * Which part of a request an engine already holds from the request before it (C18, ADR 0103), by
 * the rule the turn-cost meter uses for web-llm 0.2.86 ({@link webllmReuses}): it continues only
 * when the request is the previous one, the reply exactly as generated, and one new message. The
 * reply as generated is the assistant turn that follows the previous request in this one. The
 * memory panel shows the result: "this step read N new tokens and reused M from the step before".
 */
import { webllmReuses } from '../eval/turn-cost/webllm-reuse';
import type { Tokens } from '../units';
import type { ContextPlan } from './plan-context';

export interface PromptReuse {
  /** Tokens the engine prefills for this request: the new message and the reply header, or all. */
  fresh: Tokens;
  /** Tokens it keeps from the previous step (its request and the reply it generated). */
  kept: Tokens;
}

type Planned = Pick<ContextPlan, 'prompt' | 'turnTokens' | 'total' | 'sections'>;

/** What `plan`'s request reads new and keeps after `previous` (null: the first request). */
export function promptReuse(previous: Planned | null, plan: Planned): PromptReuse {
  const prompt = plan.total - plan.sections.reserve;
  const reply = previous ? plan.prompt[previous.prompt.length] : undefined;
  const reused =
    previous !== null &&
    reply?.role === 'assistant' &&
    webllmReuses(
      { messages: previous.prompt, output: reply.content, finishReason: 'stop' },
      plan.prompt,
    );
  if (!reused || !plan.turnTokens) return { fresh: prompt, kept: 0 };
  const last = plan.turnTokens[plan.turnTokens.length - 1] ?? 0;
  const header = prompt - plan.turnTokens.reduce((sum, t) => sum + t, 0);
  const fresh = last + header;
  return { fresh, kept: prompt - fresh };
}
