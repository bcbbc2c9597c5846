import { describe, expect, it } from 'vitest';
import { createLlama3Tokenizer } from '../../src/adapters/tokenizer/llama3-tokenizer';
import { estimateTokens } from '../../src/core/tokens/estimate-tokenizer';

const llama3 = createLlama3Tokenizer();

const samples: Record<string, string> = {
  prose:
    'My sister Anna moved to Lisbon last spring; she works at a bakery near the river and calls every Sunday.',
  numbers: '1234 5678 9012 3456',
  phone: 'Call me at +1 (415) 555-0199 before 9:30, or 2026-12-01T07:37:13Z.',
  accents: 'ñññññ ØØØ — crème brûlée, naïve café, Zürich, São Paulo',
  cjkPunctuation: '。。。！！？？',
  chinese: '我的生日是五月十二日，我喜欢吃饺子。你吃了吗？',
  mixed: 'Meeting 会议 at 3pm — bring the 报告 (v2.1) and 咖啡 ☕',
  emoji: '🎉🎂🥳 happy birthday! 👍🏽👨‍👩‍👧',
  code: 'function f(x: number[]): number { return x.reduce((a, b) => a + b, 0) ** 2; }',
  json: '{"thinking":"save it","function":"core_memory_append","arguments":{"label":"human","content":"Likes tea"},"request_heartbeat":false}',
  whitespace: 'line one\n\n\tindented line\r\n    four spaces    ',
  uuid: 'key 3f2b9c1e-8a4d-4e7f-9b6a-2c5d8e1f0a3b → value 7d6c5b4a-3e2f-1a0b-9c8d-7e6f5a4b3c2d',
};

describe('estimateTokens against the real Llama 3 tokenizer', () => {
  for (const [name, text] of Object.entries(samples)) {
    it(`C-estimate: never under-counts ${name}`, () => {
      expect(estimateTokens(text)).toBeGreaterThanOrEqual(llama3.count(text));
    });
  }

  it('C-estimate: stays within 2.5× of the real count on English prose (budgets are not wasted)', () => {
    const text = samples.prose!.repeat(20);
    expect(estimateTokens(text)).toBeLessThanOrEqual(llama3.count(text) * 2.5);
  });
});
