import llama3Tokenizer from 'llama3-tokenizer-js';
import { describe, expect, it } from 'vitest';
import { createLlama3Tokenizer } from './llama3-tokenizer';

const whole = (text: string) => llama3Tokenizer.encode(text, { bos: false, eos: false }).length;

const PARTS = [
  'Hello',
  ' world',
  "I'm",
  " you'LL",
  "'S",
  ' don’t',
  '  ',
  '   ',
  '\n',
  '\n\n',
  ' \n ',
  '\r\n',
  '\t',
  '12345',
  ' 2023-05-08',
  '3.14',
  '!!!',
  ' ?!\n',
  '{"function": "send_message"}',
  '生日',
  '我的朋友',
  ' café',
  'naïve',
  '😀',
  ' 👩‍👩‍👧',
  '—',
  '[recall 2023-05-08 user]',
  'ÀÉÎ',
  'x',
  ' ',
  '<',
  '|',
  '>',
  'eot_id',
];

describe('Llama 3 tokenizer (memoized pre-tokens)', () => {
  it('E27: counts exactly what the library counts for the whole text, in any mix of scripts, digits, spaces and newlines', () => {
    let a = 2024;
    const r = () => (a = (Math.imul(a, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const tokenizer = createLlama3Tokenizer();
    for (let n = 0; n < 600; n += 1) {
      const text = Array.from(
        { length: 1 + Math.floor(r() * 14) },
        () => PARTS[Math.floor(r() * PARTS.length)]!,
      ).join('');
      expect(tokenizer.count(text), JSON.stringify(text)).toBe(whole(text));
      // Again: the memo answers now, and must answer the same.
      expect(tokenizer.count(text)).toBe(whole(text));
    }
  });

  it('E27: special-token text is counted as the library counts it', () => {
    const tokenizer = createLlama3Tokenizer();
    for (const text of ['a<|eot_id|>b', '<|start_header_id|>user<|end_header_id|>', '<|x|>']) {
      expect(tokenizer.count(text)).toBe(whole(text));
    }
  });
});
