/**
 * Replays an evaluation conversation into a fresh agent through the real ingest path (V3): each
 * turn is one `MemoryStore.apply` of its message (speaker kept, the session's time), and each
 * session's messages are then given to `MemorySearch.indexMessages` — what the app does when a
 * transcript is imported. speaker_a's turns become `user` messages, speaker_b's `assistant`
 * messages, so the strategies see real rounds.
 */
import type { Agent, Message } from '../core/model';
import type { MemorySearch } from '../core/ports/memory-search';
import type { MemoryStore, NewMessage } from '../core/ports/memory-store';
import type { IdSource } from '../core/ports/clock';
import type { Tokenizer } from '../core/ports/tokenizer';
import { renderMessage } from '../core/prompts/render-context';
import type { EvalConversation } from './eval-dataset';

export interface ReplayDeps {
  store: MemoryStore;
  search: MemorySearch;
  ids: IdSource;
  tokenizer: Tokenizer;
}

export interface ReplayedConversation {
  agent: Agent;
  /** Every replayed message, oldest first, as the store wrote them. */
  messages: Message[];
  /** Dataset turn id → its message. */
  messageOfTurn: Map<string, Message>;
  /** Message id → dataset turn id. */
  turnOfMessage: Map<string, string>;
}

/** Progress of a replay: turns written so far of the total. */
export type ReplayProgress = (done: number, total: number) => void;

/** Writes `agent` and every turn of `conversation`; indexes them for search. */
export async function replayConversation(
  conversation: EvalConversation,
  agent: Agent,
  deps: ReplayDeps,
  onProgress?: ReplayProgress,
): Promise<ReplayedConversation> {
  const { store, search, ids, tokenizer } = deps;
  await store.apply({ agents: [agent] });
  await search.loadAgent(agent.id);
  const messages: Message[] = [];
  const messageOfTurn = new Map<string, Message>();
  const turnOfMessage = new Map<string, string>();
  const [speakerA] = conversation.speakers;
  let pending: Message[] = [];
  let session = conversation.turns[0]?.session;
  const flush = async () => {
    if (pending.length > 0) await search.indexMessages(pending);
    pending = [];
  };
  for (const turn of conversation.turns) {
    if (turn.session !== session) {
      await flush();
      session = turn.session;
    }
    const draft: NewMessage = {
      id: ids.next('msg'),
      agentId: agent.id,
      role: turn.speaker === speakerA ? 'user' : 'assistant',
      author: turn.speaker,
      ...(turn.speaker === speakerA
        ? {}
        : { toolCall: { name: 'send_message', arguments: { message: turn.text } } }),
      text: turn.text,
      at: turn.at,
      inContext: false,
      tokens: 0,
    };
    const rendered = renderMessage({ ...draft, seq: 0 });
    draft.tokens = tokenizer.countMessage(rendered.role, rendered.content);
    const applied = await store.apply({ messages: [draft] });
    for (const message of applied.messages) {
      messages.push(message);
      pending.push(message);
      messageOfTurn.set(turn.id, message);
      turnOfMessage.set(message.id, turn.id);
    }
    onProgress?.(messages.length, conversation.turns.length);
  }
  await flush();
  return { agent, messages, messageOfTurn, turnOfMessage };
}
