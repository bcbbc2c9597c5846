import { describe, expect, it } from 'vitest';
import type { Message, TurnRecord } from '../../core/model';
import { chatItems } from './chat-items';

let seq = 0;
function msg(partial: Partial<Message> & Pick<Message, 'role'>): Message {
  seq += 1;
  return {
    id: `m${seq}`,
    agentId: 'a',
    seq,
    text: `text ${seq}`,
    at: seq,
    inContext: true,
    tokens: 3,
    ...partial,
  };
}
const turn = (id: string, trigger: string, extra: Partial<TurnRecord> = {}): TurnRecord => ({
  id,
  agentId: 'a',
  triggerMessageId: trigger,
  status: 'done',
  steps: 1,
  stopReason: 'end_turn',
  startedAt: Number(id.slice(1)),
  ...extra,
});

describe('chatItems', () => {
  it('U4: a turn shows the user message, its steps, then the reply; tool receipts are not bubbles', () => {
    const user = msg({ role: 'user', turnId: 't1' });
    const search = msg({
      role: 'assistant',
      turnId: 't1',
      toolCall: { name: 'conversation_search', arguments: {} },
    });
    const receipt = msg({ role: 'tool', turnId: 't1' });
    const reply = msg({
      role: 'assistant',
      turnId: 't1',
      toolCall: { name: 'send_message', arguments: {} },
    });
    const items = chatItems([user, search, receipt, reply], { t1: turn('t1', user.id) }, {});
    expect(items.map((i) => (i.type === 'steps' ? 'steps' : `${i.type}:${i.message.id}`))).toEqual([
      `message:${user.id}`,
      'steps',
      `message:${reply.id}`,
    ]);
  });

  it('U7: an interrupted newest turn with no reply offers Retry after its trigger; older ones do not', () => {
    const u1 = msg({ role: 'user', turnId: 't1' });
    const u2 = msg({ role: 'user', turnId: 't2' });
    const turns = {
      t1: turn('t1', u1.id, { status: 'interrupted' }),
      t2: turn('t2', u2.id, { status: 'done', stopReason: 'cancelled' }),
    };
    const items = chatItems([u1, u2], turns, {});
    const steps = items.filter((i) => i.type === 'steps');
    expect(steps).toMatchObject([
      { turnId: 't1', ending: 'interrupted', canRetry: false },
      { turnId: 't2', ending: 'stopped', canRetry: true },
    ]);
    expect(items[1]).toMatchObject({ type: 'steps', turnId: 't1' });
  });

  it('U7: a retried turn (no trigger message of its own) places its steps before its reply', () => {
    const u1 = msg({ role: 'user', turnId: 't1' });
    const reply = msg({
      role: 'assistant',
      turnId: 't9',
      toolCall: { name: 'send_message', arguments: {} },
    });
    const pressure = msg({ role: 'event', speaker: 'memory_pressure' });
    const items = chatItems(
      [u1, reply, pressure],
      { t1: turn('t1', u1.id, { status: 'interrupted' }), t9: turn('t9', u1.id) },
      {},
    );
    expect(items.map((i) => i.type)).toEqual(['message', 'steps', 'steps', 'message', 'note']);
    expect(items[2]).toMatchObject({ turnId: 't9', ending: 'ok', canRetry: false });
  });

  it('U184: a regenerated turn shows no steps; an interrupted one that was retried still does', () => {
    const user = msg({ role: 'user', turnId: 't1' });
    const newReply = msg({
      role: 'assistant',
      turnId: 't2',
      toolCall: { name: 'send_message', arguments: {} },
    });
    const regenerated = chatItems(
      [user, newReply],
      { t1: turn('t1', user.id), t2: turn('t2', user.id) },
      {},
    );
    expect(
      regenerated.map((i) => (i.type === 'steps' ? `steps ${i.turnId}` : i.message.id)),
    ).toEqual([user.id, 'steps t2', newReply.id]);
    const retried = chatItems(
      [user, newReply],
      { t1: turn('t1', user.id, { status: 'interrupted' }), t2: turn('t2', user.id) },
      {},
    );
    expect(
      retried.filter((i) => i.type === 'steps').map((i) => i.type === 'steps' && i.turnId),
    ).toEqual(['t1', 't2']);
  });

  it('U331: with an earlier version kept, the newer turns that answered the same message show no steps', () => {
    const user = msg({ role: 'user', turnId: 't1' });
    const kept = msg({
      role: 'assistant',
      turnId: 't1',
      toolCall: { name: 'send_message', arguments: {} },
    });
    const items = chatItems(
      [user, kept],
      { t1: turn('t1', user.id), t2: turn('t2', user.id), t3: turn('t3', user.id) },
      {},
    );
    expect(items.map((i) => (i.type === 'steps' ? `steps:${i.turnId}` : i.type))).toEqual([
      'message',
      'steps:t1',
      'message',
    ]);
  });
});
