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
});
