import { describe, expect, it } from 'vitest';
import type { Message, TurnRecord } from '../../core/model';
import { latestTurn } from './message-actions';

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
const reply = (turnId: string) =>
  msg({ role: 'assistant', turnId, toolCall: { name: 'send_message', arguments: {} } });
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

describe('latestTurn (U183, U184)', () => {
  it('offers Edit on the latest user message and Regenerate on its last reply, nothing older', () => {
    const u1 = msg({ role: 'user', turnId: 't1' });
    const r1 = reply('t1');
    const u2 = msg({ role: 'user', turnId: 't2' });
    const search = msg({
      role: 'assistant',
      turnId: 't2',
      toolCall: { name: 'conversation_search', arguments: {} },
    });
    const first = reply('t2');
    const last = reply('t2');
    const latest = latestTurn([u1, r1, u2, search, first, last], {
      t1: turn('t1', u1.id),
      t2: turn('t2', u2.id),
    });
    expect(latest).toMatchObject({ turnId: 't2', editId: u2.id, regenerateId: last.id });
  });

  it('after a regenerate the newest turn answers the same message: its reply is the one offered', () => {
    const u = msg({ role: 'user', turnId: 't1' });
    const again = reply('t2');
    expect(latestTurn([u, again], { t1: turn('t1', u.id), t2: turn('t2', u.id) })).toMatchObject({
      turnId: 't2',
      editId: u.id,
      regenerateId: again.id,
    });
  });

  it('offers nothing while the turn runs; an event trigger offers Regenerate but no Edit', () => {
    const u = msg({ role: 'user', turnId: 't1' });
    expect(latestTurn([u], { t1: turn('t1', u.id, { status: 'running' }) })).toBeNull();
    const e = msg({ role: 'event', speaker: 'reminder', turnId: 't2' });
    const r = reply('t2');
    expect(latestTurn([u, e, r], { t1: turn('t1', u.id), t2: turn('t2', e.id) })).toMatchObject({
      editId: null,
      regenerateId: r.id,
    });
  });

  it('a failed turn with no reply still offers Edit of its message, and no Regenerate', () => {
    const u = msg({ role: 'user', turnId: 't1' });
    expect(latestTurn([u], { t1: turn('t1', u.id, { stopReason: 'error' }) })).toMatchObject({
      editId: u.id,
      regenerateId: null,
    });
    expect(latestTurn([], {})).toBeNull();
  });
});

describe('latestTurn with reply versions (U331)', () => {
  it('U331: an earlier version kept after Regenerate still offers Regenerate and its place', () => {
    const old = reply('t1');
    const u = msg({ role: 'user', turnId: 't1' });
    const kept = reply('t1');
    const later = { messages: [{ ...old, seq: kept.seq + 10 }], turns: [], steps: [] };
    const earlier = { messages: [{ ...old, seq: kept.seq - 0.5 }], turns: [], steps: [] };
    const trigger = { ...u, otherVersions: [earlier, later] };
    const turns = { t1: turn('t1', u.id), t2: turn('t2', u.id), t3: turn('t3', u.id) };
    expect(latestTurn([trigger, kept], turns)).toMatchObject({
      turnId: 't3',
      regenerateId: kept.id,
      versions: { shown: 2, count: 3 },
    });
    expect(latestTurn([u, kept], turns)?.versions).toBeNull();
  });
});
