import { describe, expect, it } from 'vitest';
import type { ReplyStats } from '../model';
import { expectedReadMs, fastRecallCap, readSpeed } from './read-speed';

const read = (model: string, readTokens: number, readMs: number): ReplyStats => ({
  model,
  readTokens,
  readMs,
});

describe('readSpeed (A43)', () => {
  it('is unknown until a reply of the model read enough tokens to time', () => {
    expect(readSpeed([], 'qwen')).toBeNull();
    expect(readSpeed([undefined, { model: 'qwen', firstWordMs: 900 }], 'qwen')).toBeNull();
    // 20 tokens in 2 s is mostly the request's own overhead, not reading.
    expect(readSpeed([read('qwen', 20, 2000)], 'qwen')).toBeNull();
    expect(readSpeed([read('llama', 1000, 10_000)], 'qwen')).toBeNull();
  });

  it("is the median rate of the model's latest replies, so one slow turn does not swing it", () => {
    const stats = [
      read('qwen', 1300, 100_000), // 13 tokens/s
      read('qwen', 600, 50_000), // 12
      read('llama', 1000, 1000), // another model: not counted
      read('qwen', 700, 700_000), // 1 (the tab was in the background)
      read('qwen', 1400, 100_000), // 14
      read('qwen', 260, 20_000), // 13
    ];
    const speed = readSpeed(stats, 'qwen');
    expect(speed?.samples).toBe(5);
    expect(speed?.tokensPerSecond).toBeCloseTo(13, 5);
  });

  it('counts only the latest eight replies', () => {
    const old = Array.from({ length: 10 }, () => read('qwen', 100, 100_000)); // 1 token/s
    const recent = Array.from({ length: 8 }, () => read('qwen', 1000, 50_000)); // 20 tokens/s
    expect(readSpeed([...old, ...recent], 'qwen')).toEqual({ tokensPerSecond: 20, samples: 8 });
  });

  it('predicts the wait for a number of tokens', () => {
    expect(expectedReadMs({ tokensPerSecond: 13, samples: 3 }, 1300)).toBe(100_000);
  });

  it('A44: a fast reply recalls what this device reads in half the wait it aims for', () => {
    expect(fastRecallCap(null)).toBeNull();
    // 13 tokens/s (a 0.5B model in wasm on two cores): about 52 tokens of memories.
    expect(fastRecallCap({ tokensPerSecond: 13, samples: 4 })).toBe(52);
    // A fast engine reads the whole default recall budget in well under the wait.
    expect(fastRecallCap({ tokensPerSecond: 400, samples: 4 })).toBe(1600);
  });
});
