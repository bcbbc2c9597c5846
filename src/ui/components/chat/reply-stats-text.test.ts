import { describe, expect, it } from 'vitest';
import { formatWait, replyStatsText, thinkingText } from './reply-stats-text';

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

  it('A43: says how much a reply read and how long that took, where the engine said', () => {
    expect(replyStatsText({ model: 'm', readTokens: 1240, readMs: 95_000 })).toBe(
      'm · read 1,240 new tokens in 1 min 35 s',
    );
  });

  it('A43: while the first word is awaited, a long known wait is said with its size', () => {
    expect(thinkingText('Juniper', { tokens: 1240, ms: 95_000 })).toBe(
      'Juniper is reading 1,240 new tokens — about 1 min 35 s on this device…',
    );
    // Short or unknown: no figures to read while they would already be out of date.
    expect(thinkingText('Juniper', { tokens: 40, ms: 900 })).toBe('Juniper is thinking…');
    expect(thinkingText('Juniper', null)).toBe('Juniper is thinking…');
  });
});
