import { describe, expect, it } from 'vitest';
import type { Message } from '../model';
import { createEstimateTokenizer } from '../tokens/estimate-tokenizer';
import { extractiveSummary } from './extractive-summary';

const tokenizer = createEstimateTokenizer();
const msg = (seq: number, role: Message['role'], text: string, tool?: string): Message => ({
  id: `m${seq}`,
  agentId: 'a',
  seq,
  role,
  text,
  at: seq,
  inContext: false,
  tokens: 0,
  ...(tool ? { toolCall: { name: tool, arguments: {} } } : {}),
});

describe('extractive summary', () => {
  const messages = [
    msg(1, 'user', 'My sister Zoe lives in Lyon. She is a nurse and works nights.'),
    msg(2, 'assistant', 'That sounds demanding!', 'send_message'),
    msg(3, 'tool', 'results 1–5 of 9 …', 'conversation_search'),
    msg(4, 'user', 'I start piano lessons on Monday.'),
  ];

  it('C12: keeps user lines and replies in order, drops tool chatter, is deterministic', () => {
    const text = extractiveSummary({
      previous: 'Earlier: met at a café.',
      messages,
      tokenizer,
      maxTokens: 200,
    });
    expect(text).toBe(
      [
        'Earlier: met at a café.',
        'User: My sister Zoe lives in Lyon. She is a nurse and works nights.',
        'Assistant: That sounds demanding!',
        'User: I start piano lessons on Monday.',
      ].join('\n'),
    );
    expect(
      extractiveSummary({
        previous: 'Earlier: met at a café.',
        messages,
        tokenizer,
        maxTokens: 200,
      }),
    ).toBe(text);
  });

  it('C12: under a tight bound user lines win over the old summary, which wins over replies', () => {
    const text = extractiveSummary({
      previous: 'Earlier: met at a café.',
      messages,
      tokenizer,
      maxTokens: 45,
    });
    expect(tokenizer.count(text)).toBeLessThanOrEqual(45);
    expect(text).toContain('User: I start piano lessons on Monday.');
    expect(text).not.toContain('Assistant:');
  });
});
