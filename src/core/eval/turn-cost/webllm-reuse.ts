/**
 * web-llm 0.2.86's rule for reusing its KV cache between two chat requests, restated from the
 * pinned package (`node_modules/@mlc-ai/web-llm/lib/index.js`): `preparePrefillInput` (line
 * 19072) builds a `Conversation` from the request's messages minus the last
 * (`getConversationFromChatCompletionRequest`, line 10876: a leading system message becomes
 * `override_system_message`) and keeps the cache only when `compareConversationObject` (line
 * 10768) finds it equal to the conversation the engine holds — the previous request's messages
 * plus its reply as generated (`finishReply(this.outputMessage)`, lines 12507 and 12590), same
 * system message, same number of messages, every role and string equal — and the previous reply
 * did not end by `abort` or `length` (line 19087), and the new history is not empty (line 19097).
 * Otherwise it resets and prefills the whole request; when it reuses, only the last message and
 * the reply header are new (`getPromptArrayLastRound`, line 10565).
 */
import type { ChatTurn } from '../../ports/llm-engine';

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

/** Whether web-llm 0.2.86 would continue from `previous` when it receives `next`. */
export function webllmReuses(previous: EngineExchange | null, next: readonly ChatTurn[]): boolean {
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
