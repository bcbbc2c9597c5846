import { describe, expect, it } from 'vitest';
import { formatWait, replyStatsText } from './reply-stats-text';

describe('the line under a reply (U328)', () => {
  it('names the model, the wait for the first word and the speed, and leaves out what was not measured', () => {
    expect(
      replyStatsText({ model: 'qwen-05b', firstWordMs: 1420, tokens: 90, decodeMs: 5000 }, (id) =>
        id === 'qwen-05b' ? 'Qwen2.5 0.5B' : id,
      ),
    ).toBe('Qwen2.5 0.5B · first word 1.4 s · 18 tokens/s');
    expect(replyStatsText({ tokens: 7, decodeMs: 1000 })).toBe('7.0 tokens/s');
    expect(replyStatsText({ model: 'm', tokens: 5, decodeMs: 0 })).toBe('m');
    expect(replyStatsText({})).toBeNull();
    expect(replyStatsText(undefined)).toBeNull();
  });

  it('reads a wait as a person does', () => {
    expect(formatWait(800)).toBe('0.8 s');
    expect(formatWait(12_400)).toBe('12 s');
    expect(formatWait(125_000)).toBe('2 min 5 s');
    expect(formatWait(120_000)).toBe('2 min');
  });
});
