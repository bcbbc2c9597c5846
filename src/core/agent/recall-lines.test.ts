import { describe, expect, it } from 'vitest';
import type { Message } from '../model';
import { tokenize } from '../search/tokenize';
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

  it('C20: the filter admits exactly what A20 defines, on random texts seen twice', () => {
    // The filter keys each text once and remembers keys across turns (ADR 0096); what it admits
    // must be what "not low-content, and not the same terms as a text already there" gives.
    const words = [
      'ok',
      'thanks',
      'Lisbon',
      'sister',
      'that’s',
      "it's",
      'the',
      'cats',
      'Cat',
      '猫',
      'wow',
    ];
    let seed = 7;
    const random = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    const text = () =>
      Array.from(
        { length: 1 + Math.floor(random() * 4) },
        () => words[Math.floor(random() * words.length)]!,
      ).join(random() < 0.5 ? ' ' : ', ');
    const queue = Array.from({ length: 5 }, (_, i) => said(`q${i}`, text()));
    for (let turn = 0; turn < 3; turn += 1) {
      const filter = createRecallFilter(queue, []);
      const seen = new Set(queue.map((m) => tokenize(m.text).join(' ')));
      for (let i = 0; i < 60; i += 1) {
        const t = text();
        const key = tokenize(t).join(' ');
        const expected = !isLowContent(t) && !seen.has(key);
        if (expected) seen.add(key);
        expect(filter.admit(t), t).toBe(expected);
      }
    }
  });
});
