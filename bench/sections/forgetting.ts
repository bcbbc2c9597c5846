/**
 * The forgetting strategy's relevance scoring (issue 20, item 11; X175): one round's scores
 * with 1k and 10k memories (one per completed round; `--quick`: 1k only), each round adding one
 * memory. Baseline in the same run: today's code before issue 20 (`relevanceScoresFull`: every
 * memory tests every gram of the dialogue). The incremental index is synced by difference and
 * visits only the memories holding a gram of the dialogue; both give equal scores
 * (src/core/strategies/forgetting/relevance-index.test.ts). Segmenting a memory's text is cached
 * by both and warmed before timing, so the figures compare the scoring alone.
 */
import {
  RelevanceIndex,
  relevanceScoresFull,
} from '../../src/core/strategies/forgetting/relevance';
import { latency, timeFigure } from '../lib/measure';
import { textGenerator } from '../lib/synthetic';
import type { BenchFigure, BenchSection } from '../types';

const MAX_GRAM = 3;
const RUNS = 10;

export const run: BenchSection = async ({ quick }) => {
  const figures: BenchFigure[] = [];
  for (const rounds of quick ? [1_000] : [1_000, 10_000]) {
    const gen = textGenerator(20 + rounds);
    const memories = Array.from({ length: rounds + RUNS + 10 }, () => gen.sentence(24));
    const dialogues = Array.from({ length: RUNS + 10 }, () => gen.sentence(60));
    const at = (i: number) => memories.slice(0, rounds + i);
    relevanceScoresFull(dialogues[0]!, memories, MAX_GRAM); // warms the segmentation cache
    const full = latency((i) => relevanceScoresFull(dialogues[i]!, at(i), MAX_GRAM), RUNS);
    const index = new RelevanceIndex(MAX_GRAM);
    index.sync(at(0));
    const incremental = latency((i) => {
      const now = at(i);
      index.sync(now);
      return index.scores(dialogues[i]!, now);
    }, RUNS);
    const k = rounds >= 1000 ? `${rounds / 1000}k` : String(rounds);
    figures.push(
      timeFigure(
        `forgetting.score.${k}.p50_ms`,
        `forgetting: score one round, ${k} memories (incremental index)`,
        incremental.p50,
        { label: 'full re-scoring (before issue 20)', value: full.p50 },
      ),
    );
  }
  return Promise.resolve(figures);
};
