import { describe, expect, it } from 'vitest';
import { createLlama3Tokenizer } from '../../adapters/tokenizer/llama3-tokenizer';
import { createEstimateTokenizer } from '../tokens/estimate-tokenizer';
import { randomText, seededRandom } from '../../testing/seeded-random';
import { PieceCounter, splitPieces } from './piece-counter';

describe('piece counter', () => {
  it('C9: pieces cut only after newline runs before a non-space, and join back to the text', () => {
    expect(splitPieces('a\nb\n\n c\n\nd')).toEqual(['a\n', 'b\n\n c\n\n', 'd']);
    const random = seededRandom(3);
    for (let i = 0; i < 50; i += 1) {
      const text = Array.from({ length: 8 }, () => randomText(random, 4)).join(
        random() < 0.5 ? '\n' : '\n\n ',
      );
      expect(splitPieces(text).join('')).toBe(text);
    }
  });

  it('C9: Llama 3 counts are exact piecewise; the estimator only over-counts', () => {
    const llama = createLlama3Tokenizer();
    const exact = new PieceCounter(llama);
    const estimate = createEstimateTokenizer();
    const rough = new PieceCounter(estimate);
    const random = seededRandom(9);
    for (let i = 0; i < 30; i += 1) {
      const text = Array.from(
        { length: 6 },
        () => `${randomText(random, 5)}${random() < 0.5 ? '.' : ')'}`,
      ).join('\n');
      expect(exact.count(text)).toBe(llama.count(text));
      expect(exact.countMessage('user', text)).toBe(llama.countMessage('user', text));
      expect(rough.count(text)).toBeGreaterThanOrEqual(estimate.count(text));
    }
  });
});
