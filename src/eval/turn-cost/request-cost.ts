/**
 * What one request costs an engine (issue 13 item 3), against the request before it:
 * - `fullPrompt` — tokens of the whole request;
 * - `newTokens` — tokens no engine could already hold: messages and lines that were not in the
 *   previous request, the template tokens around new messages and the reply header; the model's
 *   own earlier output (an assistant message) counts as held, however it is re-rendered;
 * - `prefillWebllm` — what web-llm 0.2.86 prefills ({@link continuesConversation}): the last message and
 *   the reply header when it reuses, the whole request otherwise;
 * - `prefillLcp` — what a longest-common-prefix engine (llama.cpp, wllama, llama.cpp server, vLLM
 *   prefix caching) prefills: the request's tokens after the longest common token prefix with the
 *   previous request followed by its generated output.
 * ADR 0091 explains each rule.
 */
import type { ChatTurn } from '../../core/ports/llm-engine';
import { requestTokens, type ChatTemplateTokens } from './chat-template-tokens';
import { continuesConversation, type EngineExchange } from '../../core/context/prefix-reuse';

/** A step of the agent loop (a JSON-schema request) or the queue manager's summary request. */
export type RequestKind = 'step' | 'summary';

export interface RequestCost {
  fullPrompt: number;
  newTokens: number;
  prefillWebllm: number;
  prefillLcp: number;
  /** Whether web-llm kept its cache for this request. */
  webllmReused: boolean;
}

/** A request that was measured, with its token sequence kept for the next comparison. */
export interface MeasuredExchange extends EngineExchange {
  tokens: readonly number[];
}

/** Length of the longest common prefix of two token sequences. */
export function commonPrefix(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i += 1;
  return i;
}

const lines = (text: string): string[] => text.split('\n').filter((line) => line.trim() !== '');

/**
 * Tokens of `messages` not held after `previous` (see the module comment). Lines are the unit
 * inside a message, so a system message that gained three memory lines costs those lines only.
 */
export function newTokensOf(
  tokens: ChatTemplateTokens,
  previous: EngineExchange | null,
  messages: readonly ChatTurn[],
): number {
  const full = (list: readonly ChatTurn[]) => requestTokens(tokens, list).length;
  if (previous === null) return full(messages);
  const heldMessages = new Map<string, number>();
  const heldLines = new Map<string, number>();
  const take = (map: Map<string, number>, key: string): boolean => {
    const n = map.get(key) ?? 0;
    if (n === 0) return false;
    map.set(key, n - 1);
    return true;
  };
  for (const m of previous.messages) {
    const key = `${m.role}\u0000${m.content}`;
    heldMessages.set(key, (heldMessages.get(key) ?? 0) + 1);
    for (const line of lines(m.content)) heldLines.set(line, (heldLines.get(line) ?? 0) + 1);
  }
  const systemHeld = previous.messages[0]?.role === 'system';
  let fresh = tokens.generationHeader().length;
  for (const [i, m] of messages.entries()) {
    if (take(heldMessages, `${m.role}\u0000${m.content}`)) continue;
    // Only the model writes assistant messages: the engine generated this one.
    if (m.role === 'assistant') continue;
    const wrapper = tokens.message({ role: m.role, content: '' }).length;
    if (!(i === 0 && m.role === 'system' && systemHeld)) fresh += wrapper;
    for (const line of lines(m.content)) {
      if (!take(heldLines, line)) fresh += tokens.count(`${line}\n`);
    }
  }
  return Math.min(fresh, full(messages));
}

/** Measures `messages` against the previous exchange (null for an engine's first request). */
export function requestCost(
  tokens: ChatTemplateTokens,
  previous: MeasuredExchange | null,
  messages: readonly ChatTurn[],
): { cost: RequestCost; tokens: number[] } {
  const sequence = requestTokens(tokens, messages);
  const fullPrompt = sequence.length;
  const reused = continuesConversation(previous, messages);
  const last = messages[messages.length - 1];
  const prefillWebllm =
    reused && last ? tokens.message(last).length + tokens.generationHeader().length : fullPrompt;
  const held = previous ? [...previous.tokens, ...tokens.output(previous.output)] : [];
  // An engine must evaluate at least the last prompt token to sample from it.
  const prefillLcp = Math.max(1, fullPrompt - commonPrefix(held, sequence));
  return {
    cost: {
      fullPrompt,
      newTokens: newTokensOf(tokens, previous, messages),
      prefillWebllm,
      prefillLcp,
      webllmReused: reused,
    },
    tokens: sequence,
  };
}
