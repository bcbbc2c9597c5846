/**
 * X160 (issue 20): every kind of message a model or a backup can hold renders without throwing,
 * in bounded time, and keeps its words — nested quotes and lists at every depth, emphasis and
 * bracket runs, huge tables, long lines, mixed scripts, stacked combining marks, raw HTML. The
 * browser sanitizer is replaced by the identity here (Node has no DOM); what is checked is the
 * renderer and its fallbacks, the path `renderMarkdown` runs before DOMPurify.
 */
import { describe, expect, it } from 'vitest';
import { renderMarkdownWith } from '../../../src/ui/markdown';
import { pick, seededRandom } from '../../../src/testing/seeded-random';
import { FULL, reportReliability } from './reliability-report';

const CASES = FULL ? 20_000 : 600;
const SCRIPTS = [
  'harbour',
  '港口',
  'مرفأ',
  'נמל',
  'гавань',
  'बंदरगाह',
  '🚢⚓',
  'e\u0301\u0302\u0323',
];

type Maker = (random: () => number) => string;
const depth = (random: () => number) => Math.floor(random() ** 3 * 6000);
const KINDS: Record<string, Maker> = {
  quotes: (r) => `${'>'.repeat(depth(r))} ${pick(r, SCRIPTS)}`,
  lists: (r) => `${'- '.repeat(depth(r))}${pick(r, SCRIPTS)}`,
  ordered: (r) => `${'1. '.repeat(depth(r))}${pick(r, SCRIPTS)}`,
  mixed: (r) => `${'> - 1. '.repeat(Math.floor(depth(r) / 3))}${pick(r, SCRIPTS)}`,
  indented: (r) =>
    Array.from(
      { length: Math.floor(r() * 120) },
      (_, i) => `${' '.repeat(i * 2)}- ${pick(r, SCRIPTS)}`,
    ).join('\n'),
  emphasis: (r) => {
    const n = Math.floor(r() * 3000);
    return `${'*'.repeat(n)}${pick(r, SCRIPTS)}${'*'.repeat(n)}`;
  },
  brackets: (r) => `${'['.repeat(Math.floor(r() * 3000))}${pick(r, SCRIPTS)}`,
  table: (r) => {
    const cols = 1 + Math.floor(r() * 40);
    const rows = Math.floor(r() * 400);
    const line = (cell: () => string) => `| ${Array.from({ length: cols }, cell).join(' | ')} |`;
    return [
      line(() => 'h'),
      line(() => '---'),
      ...Array.from({ length: rows }, () => line(() => pick(r, SCRIPTS))),
    ].join('\n');
  },
  longLine: (r) => `${pick(r, SCRIPTS)} `.repeat(Math.floor(r() * 40_000)),
  noSpaces: (r) => pick(r, SCRIPTS).repeat(Math.floor(r() * 60_000)),
  marks: (r) => `a${'\u0301'.repeat(Math.floor(r() * 100_000))} ${pick(r, SCRIPTS)}`,
  html: (r) => `<div>${'<b>'.repeat(Math.floor(r() * 2000))}${pick(r, SCRIPTS)}<script>x</script>`,
  code: (r) => `\`\`\`\n${'>'.repeat(depth(r))} ${pick(r, SCRIPTS)}\n\`\`\``,
};

describe('X160 render fuzz', () => {
  it(`X160: ${CASES} generated messages of ${Object.keys(KINDS).length} kinds render without throwing, fast, keeping their words`, () => {
    const random = seededRandom(20);
    const failures: string[] = [];
    const byKind: Record<string, number> = {};
    let plain = 0;
    let slowest = 0;
    for (let i = 0; i < CASES; i += 1) {
      const kind = pick(random, Object.keys(KINDS));
      const source = KINDS[kind]!(random);
      byKind[kind] = (byKind[kind] ?? 0) + 1;
      const started = performance.now();
      let html = '';
      try {
        html = renderMarkdownWith(source, (h) => h);
      } catch (error) {
        failures.push(`${kind} #${i}: threw ${String(error)}`);
        continue;
      }
      const ms = performance.now() - started;
      slowest = Math.max(slowest, ms);
      if (ms > 2_000) failures.push(`${kind} #${i}: took ${Math.round(ms)} ms`);
      if (html.includes('md-note')) plain += 1;
      const word = SCRIPTS.find((w) => source.includes(w));
      if (word !== undefined && !html.includes(word.slice(0, 1)))
        failures.push(`${kind} #${i}: lost its text`);
    }
    reportReliability({
      name: 'render-fuzz',
      rule: 'X160',
      trials: CASES,
      failures: failures.length,
      lost: 0,
      details: { ...byKind, 'shown as plain text': plain, 'slowest ms': Math.round(slowest) },
    });
    expect(failures).toEqual([]);
  }, 600_000);
});
