import { describe, expect, it } from 'vitest';
import type { Message, MessageRole } from '../model';
import { createEstimateTokenizer } from '../tokens/estimate-tokenizer';
import { createRecencyStrategy } from './recency';
import { conversation, testAgent } from './testing/fixtures';
import { createWindowStrategy } from './window';

const tokenizer = createEstimateTokenizer();
const cost = (m: Message): number => tokenizer.countMessage(m.role, m.text);

function rounds(n: number): Array<[MessageRole, string]> {
  const lines: Array<[MessageRole, string]> = [];
  for (let i = 1; i <= n; i += 1) {
    lines.push(['user', `question ${i}`]);
    lines.push(['assistant', `answer ${i}`]);
  }
  lines.push(['user', 'newest question']);
  return lines;
}

const input = (history: Message[], budget: number) => ({
  agent: testAgent({ strategy: 'recency' }),
  history,
  query: history[history.length - 1]?.text ?? '',
  budget,
  tokenizer,
  state: undefined,
  now: 0,
});

describe('recency strategy', () => {
  it('F10: the last three rounds come from both sides, older rounds from the user only, in order', async () => {
    const history = conversation(rounds(6));
    const out = await createRecencyStrategy().select(input(history, 10_000));
    expect(out.messages.map((m) => m.text)).toEqual([
      'question 1',
      'question 2',
      'question 3',
      'question 4',
      'answer 4',
      'question 5',
      'answer 5',
      'question 6',
      'answer 6',
      'newest question',
    ]);
    expect(out.tokens).toBe(out.messages.reduce((s, m) => s + cost(m), 0));
  });

  it('F10: bothSidesRounds is an option', async () => {
    const history = conversation(rounds(3));
    const out = await createRecencyStrategy({ bothSidesRounds: 0 }).select(input(history, 10_000));
    expect(out.messages.map((m) => m.role)).toEqual(['user', 'user', 'user', 'user']);
  });

  it('F10: a both-sides token cap switches to the user side early', async () => {
    const history = conversation(rounds(3));
    const newest = cost(history[history.length - 1]!);
    const out = await createRecencyStrategy({ bothSidesTokens: newest }).select(
      input(history, 10_000),
    );
    expect(out.messages.map((m) => m.role)).toEqual(['user', 'user', 'user', 'user']);
  });

  it('F11: it stops at the first message that does not fit, newest kept', async () => {
    const history = conversation([
      ['user', 'old short'],
      ['assistant', 'ok'],
      ['user', 'a long story '.repeat(50)],
      ['assistant', 'nice'],
      ['user', 'newest'],
    ]);
    const budget = cost(history[4]!) + cost(history[3]!) + 20;
    const out = await createRecencyStrategy().select(input(history, budget));
    expect(out.messages.map((m) => m.text)).toEqual(['nice', 'newest']);
  });
});

describe('window strategy', () => {
  it('F12: keeps the newest messages that fit, as a contiguous tail in order', async () => {
    const history = conversation(rounds(4));
    const budget = history.slice(-3).reduce((s, m) => s + cost(m), 0);
    const out = await createWindowStrategy().select(input(history, budget));
    expect(out.messages.map((m) => m.text)).toEqual(['question 4', 'answer 4', 'newest question']);
    expect(out.tokens).toBe(budget);
    const none = await createWindowStrategy().select(input(history, 3));
    expect(none.messages).toEqual([]);
  });

  it('F13: it counts with the planner message counter when one is given', async () => {
    const history = conversation(rounds(2));
    const out = await createWindowStrategy().select({
      ...input(history, 20),
      countMessage: () => 10,
    });
    expect(out.messages).toHaveLength(2);
    expect(out.tokens).toBe(20);
  });
});
