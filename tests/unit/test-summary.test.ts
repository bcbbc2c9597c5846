/** scripts/test-summary.mjs: the closing "N passed, M failed" line counts every suite of `npm test`. */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = resolve('scripts/test-summary.mjs');
let dir = '';

function run(files: Record<string, unknown>, checks = ['4', '0']) {
  dir = mkdtempSync(join(tmpdir(), 'loci-summary-'));
  mkdirSync(join(dir, 'test-artifacts'));
  for (const [name, body] of Object.entries(files))
    writeFileSync(join(dir, 'test-artifacts', name), JSON.stringify(body));
  const out = spawnSync(process.execPath, [SCRIPT, ...checks], { cwd: dir, encoding: 'utf8' });
  return { line: out.stdout.trim(), status: out.status };
}

const unit = { numPassedTests: 10, numFailedTests: 0, numFailedTestSuites: 0 };
const playwright = (expected: number, unexpected = 0) => ({
  stats: { expected, unexpected, flaky: 0, skipped: 0 },
  errors: [],
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('test summary', () => {
  it('adds the production smoke results to the checks, unit and e2e results', () => {
    const out = run({
      'unit-results.json': unit,
      'e2e-results.json': playwright(7),
      'prod-results.json': playwright(5),
    });
    expect(out.line).toBe('26 passed, 0 failed');
    expect(out.status).toBe(0);
  });

  it('counts a failed smoke test and fails the run', () => {
    const out = run({
      'unit-results.json': unit,
      'e2e-results.json': playwright(7),
      'prod-results.json': playwright(4, 1),
    });
    expect(out.line).toBe('25 passed, 1 failed');
    expect(out.status).toBe(1);
  });

  it('a smoke suite that left no report (its server did not start) is a failure', () => {
    const out = run({ 'unit-results.json': unit, 'e2e-results.json': playwright(7) });
    expect(out.line).toBe('21 passed, 1 failed');
    expect(out.status).toBe(1);
  });

  it('a test that passed only on its retry (ADR 0115) counts as passed and is named', () => {
    const out = run({
      'unit-results.json': unit,
      'e2e-results.json': {
        stats: { expected: 6, unexpected: 0, flaky: 1, skipped: 0 },
        errors: [],
      },
      'prod-results.json': playwright(5),
    });
    expect(out.line).toBe(
      '1 passed only on their retry (ADR 0115): see the report.\n26 passed, 0 failed',
    );
    expect(out.status).toBe(0);
  });
});
