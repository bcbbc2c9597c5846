import { describe, expect, it } from 'vitest';
import { feedbackTerms, RECALL_FEEDBACK_TERMS } from './recall-feedback';

describe('recall feedback terms (A28, ADR 0215)', () => {
  it('gives the words at least two best hits share that the query does not hold, most shared first', () => {
    const hits = [
      { text: 'The campfire and the tent by the lake.' },
      { text: 'A tent, a campfire, marshmallows.' },
      { text: 'The tent leaked; we went camping anyway.' },
      { text: 'Marshmallows again!' },
    ];
    expect(feedbackTerms('When did we go camping?', hits)).toEqual([
      'tent',
      'campfir', // search terms, as the index reads them
      'marshmallow',
    ]);
  });

  it('never counts names, numbers, acknowledgements or words of one hit only', () => {
    const hits = [
      { text: 'Thanks Caroline! Great, 2022 was awesome. Pottery class.', author: 'Melanie' },
      { text: 'Yeah Caroline, great times in 2022, awesome. Melanie here.', author: 'Melanie' },
      { text: 'Caroline: pottery again', author: 'Caroline' },
    ];
    expect(feedbackTerms('What did Melanie make?', hits)).toEqual(['pottery']);
    expect(feedbackTerms('What did Melanie make?', hits.slice(0, 1))).toEqual([]);
  });

  it('reads only the first five hits and adds at most five words', () => {
    const many = 'alpha bravo charlie delta echo foxtrot golf';
    const hits = [
      { text: many },
      { text: many },
      ...['xray', 'yankee', 'whiskey', 'zulu', 'zulu'].map((text) => ({ text })),
    ];
    const terms = feedbackTerms('a question', hits);
    expect(terms).toHaveLength(RECALL_FEEDBACK_TERMS);
    expect(terms).not.toContain('zulu');
    expect(
      feedbackTerms('a question', [
        ...['xray', 'yankee', 'whiskey', 'victor', 'uniform'].map((text) => ({ text })),
        { text: 'zulu' },
        { text: 'zulu' },
      ]),
    ).toEqual([]);
  });
});
