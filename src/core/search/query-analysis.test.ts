import { describe, expect, it } from 'vitest';
import { analyzeQuery, mentionsTime } from './query-analysis';

const speakers = new Set(['caroline', 'melanie']);

describe('analyzeQuery / mentionsTime', () => {
  it('V15: a query naming one known speaker singles that speaker out', () => {
    expect([...analyzeQuery("What is Caroline's identity?", speakers).speakers]).toEqual([
      'caroline',
    ]);
  });

  it('V15: naming every speaker, or none, singles nobody out', () => {
    expect(
      analyzeQuery('How do Caroline and Melanie know each other?', speakers).speakers.size,
    ).toBe(0);
    expect(analyzeQuery('What is the capital of France?', speakers).speakers.size).toBe(0);
  });

  it('V16: "when" questions are recognised in English and Chinese', () => {
    expect(analyzeQuery('When did Melanie run a charity race?', speakers).asksWhen).toBe(true);
    expect(analyzeQuery('What year did she move?', speakers).asksWhen).toBe(true);
    expect(analyzeQuery('她什么时候去北京？', speakers).asksWhen).toBe(true);
    expect(analyzeQuery('What did Melanie paint?', speakers).asksWhen).toBe(false);
  });

  it('V16: relative and absolute time words count as a time reference', () => {
    expect(mentionsTime('I ran a charity race last Sunday!')).toBe(true);
    expect(mentionsTime('We moved in May 2021.')).toBe(true);
    expect(mentionsTime('我昨天去了游泳馆')).toBe(true);
    expect(mentionsTime('That painting is lovely.')).toBe(false);
  });

  it('V21: named months are read, with a following year; a lower-case "may" is not a month', () => {
    expect(analyzeQuery('When did Melanie go camping in June?', speakers).months).toEqual([
      { month: 5, year: undefined },
    ]);
    expect(analyzeQuery('What happened on 1 February, 2023?', speakers).months).toEqual([
      { month: 1, year: 2023 },
    ]);
    expect(analyzeQuery('What did she do in May?', speakers).months).toEqual([
      { month: 4, year: undefined },
    ]);
    expect(analyzeQuery('may I ask what she paints?', speakers).months).toEqual([]);
  });
});
