import { describe, expect, it } from 'vitest';
import { readWaitFor } from './read-wait';

describe('readWaitFor (A43)', () => {
  it("predicts a step's wait from the device's read speed", () => {
    const wait = readWaitFor(1300, { tokensPerSecond: 13, samples: 2 });
    expect(wait?.tokens).toBe(1300);
    expect(wait?.ms).toBeCloseTo(100_000, 0);
  });

  it('says nothing before the speed is known or when nothing is read', () => {
    expect(readWaitFor(1300, null)).toBeNull();
    expect(readWaitFor(0, { tokensPerSecond: 13, samples: 2 })).toBeNull();
  });
});
