#!/usr/bin/env node
// Prints the reliability counts (rule X1 in docs/spec/reliability.md): one row per test from
// test-artifacts/reliability/*.json — trials, failures, lost — and exits 1 when any test failed,
// lost something, or is missing from the run.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = join(process.cwd(), 'test-artifacts', 'reliability');
const EXPECTED = [
  'fuzz-model-output',
  'hostile-backups',
  'quota-exhausted',
  'worker-and-device-faults',
  'kill-mid-turn',
  'kill-during-import',
  'two-tabs',
  'xss-payloads',
  'csp',
  'headers',
  'shares',
  'injection-marks',
  'marks-follow-prompt',
  'prompt-quoting',
  'render-fuzz',
  'longest-task-import',
  'longest-task-chat',
  'library-roundtrip',
  'backup-roundtrip',
  'backup-e2e-roundtrip',
  'conversations-migration',
  'backup-worker-kill',
  'export-1gb-stream',
  'offline-first-visit',
  'hostile-streams',
];
const records = existsSync(dir)
  ? readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')))
  : [];
const byName = new Map(records.map((r) => [r.name, r]));
const rows = [['test', 'rule', 'trials', 'failures', 'lost', 'size', 'when']];
let bad = 0;
for (const name of [...new Set([...EXPECTED, ...byName.keys()])]) {
  const r = byName.get(name);
  if (!r) {
    rows.push([name, '', 'missing', '', '', '', '']);
    bad += 1;
    continue;
  }
  if (r.failures > 0 || r.lost > 0) bad += 1;
  rows.push([
    r.name,
    r.rule,
    String(r.trials),
    String(r.failures),
    String(r.lost),
    r.full ? 'full' : 'ci',
    r.at,
  ]);
}
const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => String(row[i]).length)));
console.log('\nReliability summary');
for (const row of rows)
  console.log(row.map((cell, i) => String(cell).padEnd(widths[i])).join('  '));
for (const r of records)
  if (r.details)
    console.log(
      `  ${r.name}: ${Object.entries(r.details)
        .filter(([, v]) => typeof v === 'number')
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')}`,
    );
console.log(
  bad === 0
    ? '\nall reliability tests passed, nothing lost'
    : `\n${bad} reliability test(s) failed, lost something or did not run`,
);
process.exit(bad === 0 ? 0 : 1);
