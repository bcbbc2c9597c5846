/**
 * How an engine reuses the cache of the request before (ADR 0207). An engine says which of the two
 * ways it works ({@link LlmEngine.prefixCache}); the planner asks it, and these rules answer for
 * each way. Neither rule knows an engine by name.
 *
 * - **A continued conversation** (engines without a prefix cache — web-llm): the cache is kept
 *   only when the new request is the held conversation — the previous request's messages plus its
 *   reply exactly as generated, the same system message, every role and string equal — followed by
 *   exactly one new message, and the previous reply did not end by an abort or the length limit.
 *   Otherwise the whole request is read again. The web-llm adapter's test checks this rule against
 *   the pinned package's own comparison (`adapters/llm/webllm/webllm-reuse.test.ts`).
 * - **A common prefix** (llama.cpp in wllama, a model server): the engine keeps the longest common
 *   token prefix of the new request and the previous one followed by its reply, whatever follows.
 *   Counted here message by message — the planner has each turn's tokens, not each token — so a
 *   changed message counts whole (on the safe side).
 */
import type { ChatTurn } from '../ports/llm-engine';

/** One request an engine received and how its reply ended. */
export interface EngineExchange {
  messages: readonly ChatTurn[];
  /** The reply exactly as generated (partial when it was interrupted). */
  output: string;
  finishReason: 'stop' | 'length' | 'abort';
}

interface Conversation {
  system: string | undefined;
  messages: readonly ChatTurn[];
}

function split(messages: readonly ChatTurn[]): Conversation {
  const first = messages[0];
  return first?.role === 'system'
    ? { system: first.content, messages: messages.slice(1) }
    : { system: undefined, messages };
}

/** The conversation an engine holds after `previous`: its messages and the reply as generated. */
export function heldConversation(previous: EngineExchange): ChatTurn[] {
  return [...previous.messages, { role: 'assistant', content: previous.output }];
}

/** Whether an engine without a prefix cache continues from `previous` when it receives `next`. */
export function continuesConversation(
  previous: EngineExchange | null,
  next: readonly ChatTurn[],
): boolean {
  if (previous === null) return false;
  if (previous.finishReason === 'abort' || previous.finishReason === 'length') return false;
  const held = split(previous.messages);
  const heldMessages = [...held.messages, { role: 'assistant' as const, content: previous.output }];
  const asked = split(next.slice(0, -1));
  if (asked.messages.length === 0) return false;
  if (held.system !== asked.system || heldMessages.length !== asked.messages.length) return false;
  return heldMessages.every(
    (m, i) => m.role === asked.messages[i]?.role && m.content === asked.messages[i]?.content,
  );
}

/**
 * How many leading messages of `next` a prefix-cache engine holds when it holds `held` (whole
 * messages equal in role and text; {@link heldConversation} after a reply).
 */
export function commonMessagePrefix(held: readonly ChatTurn[], next: readonly ChatTurn[]): number {
  let i = 0;
  while (i < held.length && i < next.length) {
    if (held[i]!.role !== next[i]!.role || held[i]!.content !== next[i]!.content) break;
    i += 1;
  }
  return i;
}
