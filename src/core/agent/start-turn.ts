/**
 * The first write of a turn (A4): the trigger message (and a session-start event when the user
 * returns after a gap) together with a `running` TurnRecord, in one transaction, before any
 * inference. A retry reuses the stored trigger message when it is still the newest one in the
 * queue, and asks it again (a copy at the end) otherwise. A user message carries the user's
 * display name as its author when one is set (ADR 0090).
 */
import { AppError } from '../errors';
import {
  conversationOf,
  type Agent,
  type ConversationId,
  type Message,
  type TurnRecord,
} from '../model';
import type { Tokenizer } from '../ports/tokenizer';
import { CONTINUE_TEXT, sessionStartText } from '../prompts/event-copy';
import { orCancelled } from './or-cancelled';
import type { AgentDeps } from './agent-deps';
import { userDisplayName } from './display-names';
import { newMessage } from './store-message';
import type { TurnTrigger } from './turn-events';

export const DAY_MS = 86_400_000;

export interface StartedTurn {
  turn: TurnRecord;
  trigger: Message;
}

/**
 * Stores the trigger (or reuses it on retry) with a `running` TurnRecord, in one transaction (A4).
 * A new trigger goes to `conversationId` (absent: the agent's first conversation); a retry stays
 * in its trigger's conversation, and the session gap is measured within the conversation (A22).
 */
export async function startTurn(
  deps: AgentDeps,
  agent: Agent,
  trigger: TurnTrigger,
  tokenizer: Tokenizer,
  conversationId?: ConversationId,
  signal?: AbortSignal,
): Promise<StartedTurn> {
  const { store, clock, ids } = deps;
  const now = clock.now();
  const turnId = ids.next('turn');
  if (trigger.type === 'retry') {
    const old = await store.getTurn(trigger.turnId);
    if (!old || old.agentId !== agent.id)
      throw new AppError('not_found', `No turn ${trigger.turnId}.`);
    const [message] = await store.getMessages([old.triggerMessageId]);
    if (!message) throw new AppError('not_found', `The trigger of turn ${old.id} is gone.`);
    const conversation = conversationOf(message);
    const [newest] = await store.queryMessages(agent.id, {
      conversationId: conversation,
      roles: ['user', 'event'],
      reverse: true,
      limit: 1,
    });
    if (newest?.id === message.id && message.inContext) {
      const turn: TurnRecord = {
        id: turnId,
        agentId: agent.id,
        triggerMessageId: message.id,
        status: 'running',
        steps: 0,
        startedAt: now,
      };
      await store.apply({ turns: [turn] });
      return { turn, trigger: message };
    }
    // The conversation moved on (or the trigger was evicted): ask again at the end of the queue,
    // so in-context messages stay a suffix and the plan pins the right message (A17).
    const copy = newMessage(
      {
        id: ids.next('msg'),
        agentId: agent.id,
        conversationId: conversation,
        role: message.role,
        text: message.text,
        ...(message.author !== undefined ? { author: message.author } : {}),
        ...(message.speaker !== undefined ? { speaker: message.speaker } : {}),
        turnId,
        at: now,
      },
      tokenizer,
    );
    const turn: TurnRecord = {
      id: turnId,
      agentId: agent.id,
      triggerMessageId: copy.id,
      status: 'running',
      steps: 0,
      startedAt: now,
    };
    const applied = await store.apply({ messages: [copy], turns: [turn] });
    await deps.search.indexMessages(applied.messages);
    const stored = applied.messages[0];
    if (!stored) throw new AppError('storage_failed', 'The retried message was not written.');
    return { turn, trigger: stored };
  }
  if (trigger.type === 'continue') {
    // A Continue runs where its cut reply is, whatever conversation is shown (A41).
    const [cut] = await store.getMessages([trigger.messageId]);
    if (!cut || cut.agentId !== agent.id || !cut.cut)
      throw new AppError('not_found', `No cut reply ${trigger.messageId}.`);
    conversationId = conversationOf(cut);
  }
  const conversation = conversationId ?? conversationOf({ agentId: agent.id });
  const drafts = [];
  if (trigger.type === 'user_message') {
    const [[last], author] = await Promise.all([
      store.queryMessages(agent.id, { conversationId: conversation, reverse: true, limit: 1 }),
      userDisplayName(store),
    ]);
    const gap = last ? now - last.at : 0;
    if (last && gap >= (deps.sessionGapMs ?? DAY_MS)) {
      const days = Math.max(1, Math.floor(gap / DAY_MS));
      drafts.push(
        newMessage(
          {
            id: ids.next('msg'),
            agentId: agent.id,
            conversationId: conversation,
            role: 'event',
            speaker: 'session_start',
            text: sessionStartText(days),
            turnId,
            at: now,
          },
          tokenizer,
        ),
      );
    }
    drafts.push(
      newMessage(
        {
          id: ids.next('msg'),
          agentId: agent.id,
          conversationId: conversation,
          role: 'user',
          text: trigger.text,
          ...(author !== undefined ? { author } : {}),
          turnId,
          at: now,
        },
        tokenizer,
      ),
    );
  } else {
    drafts.push(
      newMessage(
        {
          id: ids.next('msg'),
          agentId: agent.id,
          conversationId: conversation,
          role: 'event',
          speaker: trigger.type === 'continue' ? 'continue' : trigger.kind,
          text: trigger.type === 'continue' ? CONTINUE_TEXT : trigger.text,
          turnId,
          at: now,
        },
        tokenizer,
      ),
    );
  }
  const triggerDraft = drafts[drafts.length - 1];
  if (!triggerDraft) throw new AppError('internal', 'A turn needs a trigger message.');
  const turn: TurnRecord = {
    id: turnId,
    agentId: agent.id,
    triggerMessageId: triggerDraft.id,
    status: 'running',
    steps: 0,
    startedAt: now,
  };
  const applied = await store.apply({ messages: drafts, turns: [turn] });
  // Indexing waits on the embed worker; a Stop does not wait for it (A5), the index still fills.
  await orCancelled(deps.search.indexMessages(applied.messages), signal);
  const stored = applied.messages.find((m) => m.id === triggerDraft.id);
  if (!stored) throw new AppError('storage_failed', 'The trigger message was not written.');
  return { turn, trigger: stored };
}
