/**
 * Reliability counts (X1): every reliability test records what it tried, what failed and what was
 * lost; `scripts/reliability-summary.mjs` prints them all. Records go to
 * `test-artifacts/reliability/<name>.json` and are printed to stdout as one line each.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ReliabilityRecord {
  /** Stable id, e.g. `fuzz-model-output`; one file per id. */
  name: string;
  /** The spec rule it checks (X…). */
  rule: string;
  trials: number;
  failures: number;
  /** Items (messages, edits, records) that were lost or duplicated. */
  lost: number;
  /** Free-form counts (per kind, per stop reason …). */
  details?: Record<string, number | string>;
}

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** True when `LOCI_RELIABILITY_FULL=1`: the full counts instead of the CI counts. */
export const FULL = process.env.LOCI_RELIABILITY_FULL === '1';

/** Writes and prints one record. */
export function reportReliability(record: ReliabilityRecord): void {
  const dir = join(ROOT, 'test-artifacts', 'reliability');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, `${record.name}.json`),
    JSON.stringify({ ...record, full: FULL, at: new Date().toISOString() }, null, 2),
  );
  console.log(
    `[reliability] ${record.name} (${record.rule}): trials=${record.trials} failures=${record.failures} lost=${record.lost}`,
  );
}
