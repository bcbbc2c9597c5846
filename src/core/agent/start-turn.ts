/**
 * The first write of a turn (A4): the trigger message (and a session-start event when the user
 * returns after a gap) together with a `running` TurnRecord, in one transaction, before any
 * inference. A retry reuses the stored trigger message.
 */
import { AppError } from '../errors';
import type { Agent, Message, TurnRecord } from '../model';
import type { Tokenizer } from '../ports/tokenizer';
import { sessionStartText } from '../prompts/event-copy';
import type { AgentDeps } from './agent-deps';
import { newMessage } from './store-message';
import type { TurnTrigger } from './turn-events';

export const DAY_MS = 86_400_000;

export interface StartedTurn {
  turn: TurnRecord;
  trigger: Message;
}

/** Stores the trigger (or reuses it on retry) with a `running` TurnRecord, in one transaction (A4). */
export async function startTurn(
  deps: AgentDeps,
  agent: Agent,
  trigger: TurnTrigger,
  tokenizer: Tokenizer,
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
    const turn: TurnRecord = {
      id: turnId,
      agentId: agent.id,
      triggerMessageId: message.id,
      status: 'running',
      steps: 0,
      startedAt: now,
    };
    // The trigger returns to the queue if a flush had evicted it.
    await store.apply({ turns: [turn], inContext: { ids: [message.id], inContext: true } });
    return { turn, trigger: { ...message, inContext: true } };
  }
  const drafts = [];
  if (trigger.type === 'user_message') {
    const [last] = await store.queryMessages(agent.id, { reverse: true, limit: 1 });
    const gap = last ? now - last.at : 0;
    if (last && gap >= (deps.sessionGapMs ?? DAY_MS)) {
      const days = Math.max(1, Math.floor(gap / DAY_MS));
      drafts.push(
        newMessage(
          {
            id: ids.next('msg'),
            agentId: agent.id,
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
          role: 'user',
          text: trigger.text,
          speaker: trigger.speaker,
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
          role: 'event',
          speaker: trigger.kind,
          text: trigger.text,
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
  await deps.search.indexMessages(applied.messages);
  const stored = applied.messages.find((m) => m.id === triggerDraft.id);
  if (!stored) throw new AppError('storage_failed', 'The trigger message was not written.');
  return { turn, trigger: stored };
}
