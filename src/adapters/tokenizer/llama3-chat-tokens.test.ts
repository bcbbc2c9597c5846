import llama3Tokenizer from 'llama3-tokenizer-js';
import { describe, expect, it } from 'vitest';
import { requestTokens } from '../../eval/turn-cost/chat-template-tokens';
import { createLlama3ChatTokens, segmentsOf } from './llama3-chat-tokens';

/** The request as one string in the Llama 3 chat template, tokenized whole. */
function wholeString(messages: { role: string; content: string }[]): number[] {
  const text =
    '<|begin_of_text|>' +
    messages
      .map((m) => `<|start_header_id|>${m.role}<|end_header_id|>\n\n${m.content}<|eot_id|>`)
      .join('') +
    '<|start_header_id|>assistant<|end_header_id|>\n\n';
  return llama3Tokenizer.encode(text, { bos: false, eos: false });
}

const awkward = [
  'plain line',
  'two\nlines',
  'blank\n\nline and trailing newline\n',
  'spaces before newline   \n  and after',
  'punctuation.\n\n- a list\n- of things!\n\tindented',
  '\nstarts with a newline',
  'numbers 12345\n678 and 2023-05-08',
  '中文的句子。\n第二行，还有English混合',
  'emoji 🙂\n🙂🙂 and quotes "q" \'s',
  '{"thinking": "x", "function": "send_message", "arguments": {"message": "a\\nb"}}',
  'windows\r\nline\r\nends',
];

describe('Llama 3 chat tokens', () => {
  it('V26: a request tokenized message by message and line by line equals the whole string tokenized at once', () => {
    const tokens = createLlama3ChatTokens();
    for (const content of awkward) {
      const messages = [
        { role: 'system' as const, content: `System.\n${content}` },
        { role: 'user' as const, content },
        { role: 'assistant' as const, content: `${content}\n` },
        { role: 'user' as const, content: `ok\n\n${content}` },
      ];
      expect(requestTokens(tokens, messages)).toEqual(wholeString(messages));
      // A second pass reads the segment cache and gives the same ids.
      expect(requestTokens(tokens, messages)).toEqual(wholeString(messages));
    }
  });

  it('V26: segments cut after a run of newlines and join back to the text', () => {
    expect(segmentsOf('a\n\nb\nc')).toEqual(['a\n\n', 'b\n', 'c']);
    expect(segmentsOf('a\n')).toEqual(['a\n']);
    for (const text of awkward) expect(segmentsOf(text).join('')).toBe(text);
  });

  it('V26: the template adds five tokens per message and four for the reply header', () => {
    const tokens = createLlama3ChatTokens();
    expect(tokens.message({ role: 'user', content: '' })).toHaveLength(5);
    expect(tokens.generationHeader()).toHaveLength(4);
    expect(tokens.begin()).toHaveLength(1);
    expect(tokens.count('Hello world')).toBe(2);
  });
});
