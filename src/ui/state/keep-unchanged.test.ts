import { describe, expect, it } from 'vitest';
import type { AgentId, Message, MessageId } from '../../core/model';
import { keepUnchanged, sameValue } from './keep-unchanged';

const message = (id: string, text: string, extra: Partial<Message> = {}): Message => ({
  id: id as MessageId,
  agentId: 'a' as AgentId,
  seq: 1,
  role: 'assistant',
  text,
  toolCall: { name: 'send_message', arguments: { message: text } },
  at: 1,
  inContext: true,
  tokens: 3,
  ...extra,
});

describe('keepUnchanged (X190)', () => {
  it('X190: an unchanged row read again keeps its old object; a new or changed one is the new row', () => {
    const a = message('m1', 'hello');
    const b = message('m2', 'there');
    const next = [
      message('m1', 'hello'),
      message('m2', 'there', { inContext: false }),
      message('m3', 'new'),
    ];
    const kept = keepUnchanged([a, b], next);
    expect(kept[0]).toBe(a);
    expect(kept[1]).toBe(next[1]);
    expect(kept[1]?.inContext).toBe(false);
    expect(kept[2]).toBe(next[2]);
  });

  it('X190: a change deep in the tool call or a field that appears is seen', () => {
    const a = message('m1', 'hello');
    const edited = message('m1', 'hello', {
      toolCall: { name: 'send_message', arguments: { message: 'hello!' } },
    });
    expect(keepUnchanged([a], [edited])[0]).toBe(edited);
    const withTurn = message('m1', 'hello', { turnId: 't1' as Message['turnId'] });
    expect(keepUnchanged([a], [withTurn])[0]).toBe(withTurn);
  });

  it('compares JSON-like values deeply', () => {
    expect(sameValue({ x: [1, { y: 'z' }] }, { x: [1, { y: 'z' }] })).toBe(true);
    expect(sameValue({ x: [1, 2] }, { x: { 0: 1, 1: 2 } })).toBe(false);
    expect(sameValue({ x: undefined }, {})).toBe(false);
    expect(sameValue(null, {})).toBe(false);
    expect(sameValue('a'.repeat(1000), 'a'.repeat(1000))).toBe(true);
  });
});
