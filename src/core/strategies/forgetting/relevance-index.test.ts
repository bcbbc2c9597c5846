import { describe, expect, it } from 'vitest';
import { RelevanceIndex, relevanceScores, relevanceScoresFull } from './relevance';

const WORDS = ['harbour', 'tide', 'lamp', 'rope', 'gull', 'salt', 'stone', 'mast', 'net', 'fog'];

function text(seed: number, words: number): string {
  let x = seed * 2654435761;
  const out: string[] = [];
  for (let i = 0; i < words; i += 1) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out.push(WORDS[x % WORDS.length]!);
  }
  return out.join(' ');
}

describe('X175: incremental relevance scoring', () => {
  it('scores exactly as the full re-scoring, round after round, as memories come and go', () => {
    const index = new RelevanceIndex(3);
    let memories = Array.from({ length: 40 }, (_, i) => text(i, 6 + (i % 5)));
    memories.push(memories[3]!); // two memories with one text: c(p̂) counts both
    for (let round = 0; round < 6; round += 1) {
      const dialogue = text(1000 + round, 12);
      index.sync(memories);
      expect(index.scores(dialogue, memories)).toEqual(relevanceScoresFull(dialogue, memories, 3));
      expect(relevanceScores(dialogue, memories, 3)).toEqual(
        relevanceScoresFull(dialogue, memories, 3),
      );
      // Next round: one memory added, the oldest two dropped (a cap, a forget-now).
      memories = [...memories.slice(2), text(500 + round, 8)];
    }
  });

  it('a memory that shares nothing scores r = 0, relevance 0.5', () => {
    const [score] = relevanceScores('harbour tide', ['quartz'], 2);
    expect(score).toEqual({ r: 0, relevance: 0.5 });
  });
});
