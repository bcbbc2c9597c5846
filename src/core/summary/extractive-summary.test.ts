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
  const previous = { text: 'Earlier: met at a café.', fromSeq: 1, toSeq: 0 };
  const later = messages.map((m) => ({ ...m, seq: m.seq + 40, id: `m${m.seq + 40}` }));

  it('C12: keeps the previous summary, user lines and replies in order, drops tool chatter, is deterministic', () => {
    const run = () =>
      extractiveSummary({
        previous: { ...previous, toSeq: 40 },
        messages: later,
        tokenizer,
        maxTokens: 200,
      });
    expect(run()).toEqual({
      text: [
        'Earlier: met at a café.',
        'User: My sister Zoe lives in Lyon. She is a nurse and works nights.',
        'Assistant: That sounds demanding!',
        'User: I start piano lessons on Monday.',
      ].join('\n'),
      fromSeq: 1,
      toSeq: 44,
    });
    expect(run()).toEqual(run());
  });

  it('C12: the previous summary is carried forward when the evicted lines alone would fill the bound', () => {
    const chatty = Array.from({ length: 30 }, (_, i) =>
      msg(
        41 + i,
        'user',
        `Day ${i}: I walked to the harbour again and watched boat number ${i} come in.`,
      ),
    );
    const out = extractiveSummary({
      previous: {
        text: 'Zoe (my sister) lives in Lyon and works nights as a nurse.',
        fromSeq: 1,
        toSeq: 40,
      },
      messages: chatty,
      tokenizer,
      maxTokens: 96,
    });
    expect(out.text.split('\n')[0]).toBe(
      'Zoe (my sister) lives in Lyon and works nights as a nurse.',
    );
    // Some of what was evicted now is there too, and the whole stays within the bound.
    expect(out.text).toMatch(/User: Day \d+: I walked/);
    expect(tokenizer.count(out.text)).toBeLessThanOrEqual(96);
    expect(out).toMatchObject({ fromSeq: 1, toSeq: 70 });
  });

  it('C12: when room runs out the oldest sentences of the previous summary go first', () => {
    const old =
      'Ada met Sam in 2019. They moved to Oslo in 2021. Sam adopted a dog called Pixel. Ada started a bakery.';
    const out = extractiveSummary({
      previous: { text: old, fromSeq: 1, toSeq: 40 },
      messages: later,
      tokenizer,
      maxTokens: 44,
    });
    expect(out.text).not.toContain('Ada met Sam in 2019.');
    expect(out.text).toContain('Ada started a bakery.');
    // The freed room holds the evicted user line that says the most.
    expect(out.text).toMatch(/^User: My sister Zoe lives in Lyon/m);
    expect(tokenizer.count(out.text)).toBeLessThanOrEqual(44);
    expect(out.fromSeq).toBe(1);
  });

  it('C12: a summary that keeps nothing of the previous one covers only the evicted messages', () => {
    const out = extractiveSummary({
      previous: {
        text: 'A single long sentence about everything that happened before, far too long to keep whole here',
        fromSeq: 1,
        toSeq: 40,
      },
      messages: later,
      tokenizer,
      maxTokens: 24,
    });
    expect(out.text).not.toContain('A single long sentence');
    expect(out).toMatchObject({ fromSeq: 41, toSeq: 44 });
  });

  it('C12: a line that adds nothing the summary does not already say is left out', () => {
    const out = extractiveSummary({
      previous: { text: 'User: I start piano lessons on Monday.', fromSeq: 1, toSeq: 40 },
      messages: [msg(41, 'user', 'I start piano lessons on Monday.'), msg(42, 'user', 'ok')],
      tokenizer,
      maxTokens: 200,
    });
    expect(out.text).toBe('User: I start piano lessons on Monday.');
    expect(out).toMatchObject({ fromSeq: 1, toSeq: 42 });
  });
});
