/**
 * One benchmark figure beside the naive baseline measured in the same run. Every section of
 * `npm run bench` (bench/sections/*.ts) returns a list of these; bench/README.md documents
 * each `id`.
 */
export interface BenchFigure {
  /** Stable id, e.g. `search.lexical.100k.p95_ms`. */
  id: string;
  /** What it measures, in words, for the printed table. */
  label: string;
  unit: 'ms' | 'rows/s' | 'chars/s' | 'passages/s' | 'tokens/s' | 'ratio' | 'MB' | 'recall';
  value: number;
  baseline?: { label: string; value: number };
  /** baseline / value for times (higher is better), value / baseline for throughputs. */
  ratio?: number;
  /** Target from the issue, for the table (e.g. "≤ 10 ms"). */
  target?: string;
  notes?: string;
}

export interface BenchOptions {
  /** Smaller sizes for a quick check (`--quick`). */
  quick: boolean;
}

export type BenchSection = (options: BenchOptions) => Promise<BenchFigure[]>;
