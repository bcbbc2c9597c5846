import { describe, expect, it } from 'vitest';
import type { Message, ReplyStats } from '../../core/model';
import { readWaitFor } from './read-wait';

const replyWith = (stats: ReplyStats): Message =>
  ({ id: `m${Math.random()}`, role: 'assistant', text: 'ok', stats }) as unknown as Message;

describe('readWaitFor (A43)', () => {
  const history = [
    replyWith({ model: 'qwen', readTokens: 1300, readMs: 100_000 }),
    { id: 'u', role: 'user', text: 'hi' } as unknown as Message,
    replyWith({ model: 'qwen', readTokens: 650, readMs: 50_000 }),
  ];

  it("predicts a step's wait from the model's earlier replies in the chat", () => {
    const wait = readWaitFor(1300, 'qwen', history);
    expect(wait?.tokens).toBe(1300);
    expect(wait?.ms).toBeCloseTo(100_000, 0);
  });

  it('says nothing for another model, no model, or nothing to read', () => {
    expect(readWaitFor(1300, 'llama', history)).toBeNull();
    expect(readWaitFor(1300, null, history)).toBeNull();
    expect(readWaitFor(0, 'qwen', history)).toBeNull();
    expect(readWaitFor(1300, 'qwen', [])).toBeNull();
  });
});
