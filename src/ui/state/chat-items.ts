/**
 * Turns the stored messages of an agent into what the chat shows (rules U4, U7): user messages
 * and `send_message` replies as bubbles, session and memory-pressure events as small notes, and
 * for each turn one collapsible list of its steps — placed before the turn's first reply, or
 * after its last message when it never replied — with how the turn ended. Tool receipts and
 * non-reply steps are not bubbles: they are the steps. A finished turn whose reply is not shown
 * while another turn answers the same message — regenerated (U184), or a version not kept (U331) —
 * shows no steps: its step records stay in the store, and come back with its version. A reply that continues a cut one (A41) is shown as
 * part of it: one bubble, the texts joined, and neither the Continue request nor its turn's
 * steps are shown (U292).
 */
import type { Message, MessageId, StopReason, TurnId, TurnRecord } from '../../core/model';
import type { StepView } from './turn-view';

export type TurnEnding = 'ok' | 'running' | 'interrupted' | 'stopped' | 'failed';

export type ChatItem =
  | {
      type: 'message';
      /** What the bubble shows: a reply with its continuations' text appended (A41, U292). */
      message: Message;
      /** The stored messages the bubble stands for, oldest first (Delete takes them all). */
      ids: MessageId[];
      /** The newest of them: Continue goes on from it when it was cut. */
      tail: Message;
    }
  | { type: 'note'; message: Message }
  | {
      type: 'steps';
      turnId: TurnId;
      steps: StepView[];
      ending: TurnEnding;
      stopReason: StopReason | null;
      /** Only the newest turn offers Retry, and only when it did not finish. */
      canRetry: boolean;
    };

export function isReply(message: Message): boolean {
  return message.role === 'assistant' && message.toolCall?.name === 'send_message';
}

function endingOf(turn: TurnRecord | undefined): TurnEnding {
  if (!turn) return 'ok';
  if (turn.status === 'running') return 'running';
  if (turn.status === 'interrupted') return 'interrupted';
  switch (turn.stopReason) {
    case undefined:
    case 'end_turn':
      return 'ok';
    case 'cancelled':
      return 'stopped';
    default:
      return 'failed';
  }
}

export function chatItems(
  messages: readonly Message[],
  turns: Readonly<Record<TurnId, TurnRecord>>,
  steps: Readonly<Record<TurnId, StepView[]>>,
): ChatItem[] {
  const newest = Object.values(turns).sort((a, b) => b.startedAt - a.startedAt)[0];
  const stepsItem = (turnId: TurnId): ChatItem => {
    const turn = turns[turnId];
    const ending = endingOf(turn);
    return {
      type: 'steps',
      turnId,
      steps: steps[turnId] ?? [],
      ending,
      stopReason: turn?.stopReason ?? null,
      canRetry:
        newest?.id === turnId &&
        (ending === 'interrupted' || ending === 'stopped' || ending === 'failed'),
    };
  };

  // Where each turn's steps go when it has no reply: after its last message (or its trigger).
  const lastIndex: Record<TurnId, number> = {};
  messages.forEach((m, i) => {
    if (m.turnId) lastIndex[m.turnId] = i;
  });
  for (const turn of Object.values(turns)) {
    const i = messages.findIndex((m) => m.id === turn.triggerMessageId);
    if (i >= 0 && (lastIndex[turn.id] === undefined || lastIndex[turn.id]! < i))
      lastIndex[turn.id] = i;
  }
  const replied: Record<TurnId, true> = {};
  for (const m of messages) if (m.turnId && isReply(m)) replied[m.turnId] = true;

  // Continuations join the bubble of the reply they go on from; their turns show no steps.
  const bubbleOf = new Map<MessageId, number>();
  const placed: Record<TurnId, true> = {};
  for (const m of messages) {
    if (m.continues && m.turnId && messages.some((c) => c.id === m.continues))
      placed[m.turnId] = true;
  }
  // A finished turn without a shown reply whose message another turn answers: its reply was
  // regenerated (U184) or is a version not kept (U331), so its steps go with it.
  for (const turn of Object.values(turns)) {
    const answeredAgain = Object.values(turns).some(
      (other) => other.id !== turn.id && other.triggerMessageId === turn.triggerMessageId,
    );
    if (answeredAgain && endingOf(turn) === 'ok' && !replied[turn.id]) placed[turn.id] = true;
  }
  const items: ChatItem[] = [];
  messages.forEach((m, i) => {
    if (m.turnId && isReply(m) && !placed[m.turnId]) {
      placed[m.turnId] = true;
      items.push(stepsItem(m.turnId));
    }
    const joined = m.continues === undefined ? undefined : bubbleOf.get(m.continues);
    const bubble = joined === undefined ? undefined : items[joined];
    if (bubble?.type === 'message' && isReply(m)) {
      const { cut: _cut, ...head } = bubble.message;
      items[joined!] = {
        type: 'message',
        message: { ...head, text: head.text + m.text, ...(m.cut ? { cut: true } : {}) },
        ids: [...bubble.ids, m.id],
        tail: m,
      };
      bubbleOf.set(m.id, joined!);
    } else if (m.role === 'user' || isReply(m)) {
      bubbleOf.set(m.id, items.length);
      items.push({ type: 'message', message: m, ids: [m.id], tail: m });
    } else if (m.role === 'event' && m.speaker !== 'continue')
      items.push({ type: 'note', message: m });
    for (const [turnId, index] of Object.entries(lastIndex)) {
      if (index === i && !placed[turnId] && !replied[turnId]) {
        placed[turnId] = true;
        items.push(stepsItem(turnId));
      }
    }
  });
  return items;
}
