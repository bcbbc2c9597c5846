/**
 * Why web-llm 0.2.86 did not keep its cache for a request ({@link continuesConversation}): the first
 * difference between the conversation it holds (the previous request and its reply as generated)
 * and the new request minus its last message, named by what changed it. The turn-cost meter
 * counts the causes (V34), so a report says which part of the prompt protocol breaks the prefix.
 */
import type { ChatTurn } from '../../core/ports/llm-engine';
import { MEMORIES_HEADER, MESSAGE_AFTER_MEMORIES } from '../../core/prompts/render-context';
import type { RequestKind } from './request-cost';
import type { EngineExchange } from '../../core/context/prefix-reuse';

export type ResetCause =
  /** The engine's first request. */
  | 'first'
  /** A summary request (a queue flush), or the first step after one: another conversation. */
  | 'summary_request'
  /** The previous reply was interrupted or cut by the length limit. */
  | 'reply_cut'
  /** The system message's summary section changed (a queue flush). */
  | 'system_summary'
  /** The system message's core memory changed (a core-memory edit). */
  | 'system_core'
  /** Any other change to the system message (instructions, tools). */
  | 'system_other'
  /** The oldest messages left the prompt (an eviction). */
  | 'evicted'
  /** The memories merged into an earlier message changed (a memory flush, C17). */
  | 'memories_changed'
  /** The previous reply is shown other than exactly as generated. */
  | 'output_rewritten'
  /** An earlier tool result reads differently. */
  | 'tool_result_changed'
  /** Any other earlier message reads differently. */
  | 'message_changed'
  /** More than one message is new since the previous reply (events, an unanswered message). */
  | 'several_new'
  /** The request holds fewer messages than the previous one plus its reply. */
  | 'message_missing';

/** A request with its kind, as the meter records it. */
export interface KindedExchange extends EngineExchange {
  kind: RequestKind;
}

function split(messages: readonly ChatTurn[]): { system: string; rest: readonly ChatTurn[] } {
  const first = messages[0];
  return first?.role === 'system'
    ? { system: first.content, rest: messages.slice(1) }
    : { system: '', rest: messages };
}

/** The text of a section of the system message that starts with `marker` (to the next blank line). */
function section(system: string, marker: string): string {
  const at = system.indexOf(marker);
  if (at < 0) return '';
  const end = system.indexOf('\n\n', at);
  return end < 0 ? system.slice(at) : system.slice(at, end);
}

/** A user turn's own text without the memories merged in front of it (C17). */
function withoutMemories(content: string): string {
  if (!content.startsWith(MEMORIES_HEADER)) return content;
  const at = content.indexOf(`\n${MESSAGE_AFTER_MEMORIES}\n`);
  return at < 0 ? content : content.slice(at + MESSAGE_AFTER_MEMORIES.length + 2);
}

const same = (a: ChatTurn | undefined, b: ChatTurn | undefined): boolean =>
  a !== undefined && b !== undefined && a.role === b.role && a.content === b.content;

/**
 * Why web-llm resets for `next` after `previous` (null when it reuses). The earliest difference
 * names the cause; a system message change is looked at first, as web-llm compares it first.
 */
export function resetCause(
  previous: KindedExchange | null,
  next: { kind: RequestKind; messages: readonly ChatTurn[] },
): ResetCause | null {
  if (previous === null) return 'first';
  if (previous.kind === 'summary' || next.kind === 'summary') return 'summary_request';
  if (previous.finishReason !== 'stop') return 'reply_cut';
  const held = split(previous.messages);
  const asked = split(next.messages.slice(0, -1));
  if (held.system !== asked.system) {
    if (section(held.system, 'Summary of earlier') !== section(asked.system, 'Summary of earlier'))
      return 'system_summary';
    if (section(held.system, 'Core memory:') !== section(asked.system, 'Core memory:'))
      return 'system_core';
    return 'system_other';
  }
  const heldTurns = [...held.rest, { role: 'assistant' as const, content: previous.output }];
  const askedTurns = asked.rest;
  const n = Math.min(heldTurns.length, askedTurns.length);
  for (let i = 0; i < n; i += 1) {
    const h = heldTurns[i]!;
    const a = askedTurns[i]!;
    if (same(h, a)) continue;
    if (heldTurns.slice(i + 1).some((later) => same(later, a))) return 'evicted';
    if (i === heldTurns.length - 1) return 'output_rewritten';
    if (
      h.role === 'user' &&
      a.role === 'user' &&
      withoutMemories(h.content) === withoutMemories(a.content)
    )
      return 'memories_changed';
    if (h.content.startsWith('[result of ')) return 'tool_result_changed';
    return h.role === 'assistant' ? 'output_rewritten' : 'message_changed';
  }
  if (askedTurns.length > heldTurns.length) return 'several_new';
  if (askedTurns.length < heldTurns.length) return 'message_missing';
  return null;
}
