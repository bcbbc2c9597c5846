import { describe, expect, it } from 'vitest';
import type { Message } from '../model';
import { createRecallFilter, isLowContent, queryCoverage, trimToQuery } from './recall-lines';

const said = (id: string, text: string): Message => ({
  id,
  agentId: 'a',
  seq: 1,
  role: 'user',
  text,
  at: 0,
  inContext: true,
  tokens: 0,
});

describe('recall lines (A19, A20, ADR 0094)', () => {
  it('A19: acknowledgements and greetings are low-content; a short fact is not', () => {
    for (const text of [
      'OK',
      'Got it, I have saved that.',
      'Thanks!',
      'Wow, that’s awesome!',
      '👍',
    ])
      expect(isLowContent(text), text).toBe(true);
    for (const text of ['Yes, last Sunday!', 'My sister lives in Lisbon.', '我的生日是五月'])
      expect(isLowContent(text), text).toBe(false);
  });

  it('A20: a repeat, a queued text or a text in core memory is not paged in again', () => {
    const filter = createRecallFilter(
      [said('q', 'I adopted a grey kitten.')],
      ['The user is called Sam.\nLikes hiking in the Alps.'],
    );
    expect(filter.admit('My sister lives in Lisbon.')).toBe(true);
    expect(filter.admit('my sister  lives in LISBON')).toBe(false);
    expect(filter.admit('I adopted a grey kitten!')).toBe(false);
    expect(filter.admit('likes hiking in the alps')).toBe(false);
    expect(filter.admit('Got it, I have saved that.')).toBe(false);
    expect(filter.admit('Hiking is fun.')).toBe(true);
  });

  it('A19: a long text keeps the sentences that match the query, in order, within the limit', () => {
    const text =
      'We drove for hours. The weather was grim. My sister moved to Lisbon last spring. ' +
      'She works at a bakery there. The traffic was awful on the way back home.';
    const trimmed = trimToQuery(text, 'Where did my sister move?', 60);
    expect(trimmed).toBe('… My sister moved to Lisbon last spring. …');
    expect(trimmed.length).toBeLessThanOrEqual(60 + 4);
    expect(trimToQuery('Short and whole.', 'anything', 60)).toBe('Short and whole.');
    expect(trimToQuery(text, 'unrelated words', 20)).toBe('We drove for hours.…');
  });

  it('A19: coverage counts the distinct query terms a memory holds, its speaker included', () => {
    const covers = queryCoverage('When did Melanie paint a sunrise?');
    expect(covers('I painted the sunrise by the lake.', 'Melanie')).toBe(3);
    expect(covers('I painted the sunrise by the lake.')).toBe(2);
    expect(covers('We went camping.', 'Caroline')).toBe(0);
  });
});
