import { describe, expect, it } from 'vitest';
import { evidenceRanks, foundWithin } from './evidence-ranks';

describe('evidenceRanks / foundWithin', () => {
  const ranked = ['a', 'b', 'c', 'd', 'e', 'f'];

  it('V5: found at k when at least one evidence turn is in the top k', () => {
    const ranks = evidenceRanks(ranked, ['e', 'z']);
    expect(ranks.first).toBe(5);
    expect(foundWithin(ranks, 4, 'any')).toBe(false);
    expect(foundWithin(ranks, 5, 'any')).toBe(true);
  });

  it('V6: "all" needs every evidence turn within k, and never when one is missing', () => {
    const both = evidenceRanks(ranked, ['b', 'd']);
    expect(both).toEqual({ first: 2, all: 4 });
    expect(foundWithin(both, 3, 'all')).toBe(false);
    expect(foundWithin(both, 3, 'any')).toBe(true);
    expect(foundWithin(both, 4, 'all')).toBe(true);
    const missing = evidenceRanks(ranked, ['a', 'z']);
    expect(foundWithin(missing, 100, 'all')).toBe(false);
    expect(foundWithin(missing, 1, 'any')).toBe(true);
  });

  it('V4: a question without evidence is never found', () => {
    expect(foundWithin(evidenceRanks(ranked, []), 10, 'any')).toBe(false);
  });
});
