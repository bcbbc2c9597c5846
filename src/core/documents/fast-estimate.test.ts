import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../tokens/estimate-tokenizer';
import { estimateTokensFast } from './fast-estimate';

describe('estimateTokensFast', () => {
  it('D12: counts exactly like estimateTokens on mixed English, Chinese, emoji and rare Han', () => {
    const alphabet = ['a', ' ', '.', '中', '文', '。', '😀', '𠀀', 'é', '\n', 'ｱ', '〇', '⺀'];
    let seed = 99;
    for (let round = 0; round < 300; round += 1) {
      let s = '';
      for (let k = 0; k < round; k += 1) {
        seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
        s += alphabet[seed % alphabet.length];
      }
      expect(estimateTokensFast(s)).toBe(estimateTokens(s));
    }
  });
});
