// Aggregates the unit (Vitest JSON), e2e and production smoke (Playwright JSON) results plus the
// pre-test checks into the one closing line CI reads: "N passed, M failed". Exits non-zero on
// any failure.
import { existsSync, readFileSync } from 'node:fs';

const [checksPassed = '0', checksFailed = '0'] = process.argv.slice(2);
let passed = Number(checksPassed);
let failed = Number(checksFailed);
let skipped = 0;
let flaky = 0;

const read = (path) => (existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : null);

const unit = read('test-artifacts/unit-results.json');
if (unit) {
  passed += unit.numPassedTests ?? 0;
  failed += (unit.numFailedTests ?? 0) + (unit.numFailedTestSuites ?? 0);
  skipped += (unit.numPendingTests ?? 0) + (unit.numTodoTests ?? 0);
} else {
  failed += 1;
}

// A suite whose report is missing (it did not run, or its server did not start) counts as failed.
for (const file of ['test-artifacts/e2e-results.json', 'test-artifacts/prod-results.json']) {
  const suite = read(file);
  if (suite?.stats) {
    // Only specs that set their own retry (ADR 0115) can be "flaky": passed on the retry. They
    // count as passed and are named in a line of their own, so they are never silent.
    passed += (suite.stats.expected ?? 0) + (suite.stats.flaky ?? 0);
    flaky += suite.stats.flaky ?? 0;
    failed += suite.stats.unexpected ?? 0;
    skipped += suite.stats.skipped ?? 0;
    failed += (suite.errors ?? []).length;
  } else {
    failed += 1;
  }
}

if (flaky > 0) console.log(`${flaky} passed only on their retry (ADR 0115): see the report.`);
console.log(
  skipped
    ? `${passed} passed, ${failed} failed, ${skipped} skipped`
    : `${passed} passed, ${failed} failed`,
);
process.exit(failed > 0 ? 1 : 0);
