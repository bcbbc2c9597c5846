import { describe, expect, it } from 'vitest';
import { relevanceScores, sigmoid } from './relevance';
import { countUnits, segmentUnits } from './segment-units';

describe('segmentUnits', () => {
  it('F1: Han text is one unit per character, English one unit per lower-cased word', () => {
    expect(segmentUnits('你吃了吗')).toEqual([['你', '吃', '了', '吗']]);
    expect(segmentUnits('Where did Anna move to?')).toEqual([
      ['where', 'did', 'anna', 'move', 'to'],
    ]);
  });

  it('F1: mixed text is segmented run by run and punctuation ends a segment', () => {
    expect(segmentUnits('我用Python写代码。Then rest')).toEqual([
      ['我', '用', 'python', '写', '代', '码'],
      ['then', 'rest'],
    ]);
    expect(segmentUnits("Anna's café, ＡＢＣ")).toEqual([['anna', 's', 'café'], ['abc']]);
    expect(countUnits('你好, world')).toBe(3);
  });
});

describe('relevanceScores', () => {
  const close = (actual: number, expected: number): void =>
    expect(Math.abs(actual - expected)).toBeLessThan(1e-9);

  it('F2: the seed example 你吃了吗 matches the hand-computed r (A = 3)', () => {
    // docs/forgetting-curve.md works these out gram by gram.
    const [m1, m2, m3] = relevanceScores('你吃了吗', ['我吃了', '你吃饭了吗', '今天下雨'], 3);
    close(m1!.r, 0.75); // 吃 −0.625, 了 −0.625, 吃了 +2
    close(m2!.r, 15.25); // 你 4, 吃 −0.375, 了 −0.375, 吗 4, 你吃 4, 了吗 4
    close(m3!.r, 0);
    close(m1!.relevance, 1 / (1 + Math.exp(-0.75)));
    close(m3!.relevance, 0.5);
    expect(m2!.relevance).toBeGreaterThan(m1!.relevance);
  });

  it('F2: an English example weighs a rare shared word up and a common one down', () => {
    const [anna, beach] = relevanceScores(
      'Where did Anna move to?',
      ['Anna moved to Paris last year', 'I want to go to the beach'],
      3,
    );
    close(anna!.r, 4.75); // anna: 6/1³ − 1 = 5; to (in 2 memories): 6/2³ − 1 = −0.25
    close(beach!.r, -0.125); // to: 7/2³ − 1
    expect(beach!.relevance).toBeLessThan(0.5);
  });

  it('F2: with A = 1 the formula is the seed first formula, and repeated grams count per position', () => {
    const [m1, m2] = relevanceScores('你吃了吗', ['我吃了', '你吃饭了吗'], 1);
    close(m1!.r, 1); // 吃 3/2 − 1, 了 3/2 − 1
    close(m2!.r, 11); // 你 4, 吃 1.5, 了 1.5, 吗 4
    const [only] = relevanceScores('吃吃', ['吃饭'], 1);
    close(only!.r, 2);
  });

  it('F2: a longer shared gram weighs more than the same units shared one by one', () => {
    const [together, apart] = relevanceScores('吃了', ['吃了饭', '吃饭了'], 3);
    expect(together!.relevance).toBeGreaterThan(apart!.relevance);
  });

  it('F2: sigmoid stays finite and ordered at the extremes', () => {
    expect(sigmoid(1000)).toBe(1);
    expect(sigmoid(-1000)).toBe(0);
    close(sigmoid(0), 0.5);
  });
});
