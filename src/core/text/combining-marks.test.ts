import { describe, expect, it } from 'vitest';
import { capStackedMarks, MAX_STACKED_MARKS } from './combining-marks';

describe('capStackedMarks', () => {
  it('X172 (item 3): a letter with 200,000 combining marks shows 8 and says how many more, fast', () => {
    const zalgo = `a${'\u0301'.repeat(200_000)}b`;
    const started = performance.now();
    const shown = capStackedMarks(zalgo);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(shown).toBe(`a${'\u0301'.repeat(MAX_STACKED_MARKS)} [+199992 marks]b`);
  });

  it('X172: ordinary accents, Devanagari and Vietnamese are unchanged', () => {
    for (const text of ['café naïve', 'नमस्ते दुनिया', 'Tiếng Việt', 'e\u0301\u0302\u0323']) {
      expect(capStackedMarks(text)).toBe(text);
    }
  });
});
