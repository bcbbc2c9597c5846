import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// Keeps docs/decisions navigable (docs/decisions/README.md, "Contributing"): every record opens
// with a Status line, every number a Status line names is a record, a newer record that amends or
// supersedes an older one is named in the older one's Status, and README.md indexes every record
// with the same status.

const DIR = join(process.cwd(), 'docs', 'decisions');
const RECORD_FILE = /^(\d{4})-[a-z0-9-]+\.md$/;
/**
 * `0072, 0094 and 0098` after a verb; commas and `and` join, and each number may carry a note in
 * parentheses (`Amends 0143 (its step records) and 0011 (…)`).
 */
const ITEM = String.raw`\d{4}(?:\s*\([^)]*\))?`;
const LIST = String.raw`(${ITEM}(?:(?:,\s*|\s+and\s+|,\s+and\s+)${ITEM})*)`;

interface DecisionRecord {
  file: string;
  num: string;
  title: string;
  /** The Status paragraph without its `**Status:**` label, lines joined; null when missing. */
  status: string | null;
}

function numbersIn(text: string): string[] {
  return text.match(/\b\d{4}\b/g) ?? [];
}

/** Numbers after `verb` (case-insensitive), e.g. `amended by` or `Supersedes`. */
function listAfter(status: string, verb: string): string[] {
  const found: string[] = [];
  for (const m of status.matchAll(new RegExp(`\\b${verb}\\s+${LIST}`, 'gi'))) {
    found.push(...numbersIn((m[1] ?? '').replace(/\([^)]*\)/g, '')));
  }
  return found;
}

function readRecords(): DecisionRecord[] {
  return readdirSync(DIR)
    .filter((file) => RECORD_FILE.test(file))
    .sort()
    .map((file) => {
      const num = RECORD_FILE.exec(file)?.[1] ?? '';
      const lines = readFileSync(join(DIR, file), 'utf8').split('\n');
      const title = lines[0] ?? '';
      let i = 1;
      while (i < lines.length && (lines[i] ?? '').trim() === '') i++;
      if (!(lines[i] ?? '').startsWith('**Status:**')) return { file, num, title, status: null };
      const paragraph: string[] = [];
      while (i < lines.length && (lines[i] ?? '').trim() !== '') paragraph.push(lines[i++]!.trim());
      const status = paragraph.join(' ').slice('**Status:**'.length).trim();
      return { file, num, title, status };
    });
}

/** The index line of each record file README.md links to as `](NNNN-….md)`. */
function readIndex(): Map<string, string[]> {
  const lines = readFileSync(join(DIR, 'README.md'), 'utf8').split('\n');
  const byFile = new Map<string, string[]>();
  for (const line of lines) {
    const m = /^- \*\*(\d{4})\*\* \[.*?\]\((\d{4}-[a-z0-9-]+\.md)\)(.*)$/.exec(line);
    if (!m) continue;
    const list = byFile.get(m[2]!) ?? [];
    list.push(line);
    byFile.set(m[2]!, list);
  }
  return byFile;
}

const records = readRecords();
const byNum = new Map(records.map((r) => [r.num, r]));

describe('decision records (docs/decisions)', () => {
  it('there are records, each titled "# NNNN — …" with its file number', () => {
    expect(records.length).toBeGreaterThan(100);
    const bad = records.filter((r) => !r.title.startsWith(`# ${r.num} — `)).map((r) => r.file);
    expect(bad).toEqual([]);
    const numbers = records.map((r) => r.num);
    expect(numbers.filter((n, i) => numbers.indexOf(n) !== i)).toEqual([]);
  });

  it('every record opens with a Status line right after its title', () => {
    const missing = records.filter((r) => r.status === null).map((r) => r.file);
    expect(missing, 'add "**Status:** accepted, YYYY-MM-DD." under the title').toEqual([]);
  });

  it('every Status starts with "accepted" or "superseded by NNNN"', () => {
    const bad = records
      .filter((r) => r.status !== null && !/^(accepted\b|superseded by \d{4}\b)/.test(r.status))
      .map((r) => `${r.file}: ${r.status}`);
    expect(bad).toEqual([]);
  });

  it('every record number a Status line names exists', () => {
    const dangling: string[] = [];
    for (const r of records) {
      if (r.status === null) continue;
      // Dates (2026-12-02) are not record numbers; every other four-digit number is.
      const withoutDates = r.status.replace(/\b\d{4}-\d{2}-\d{2}\b/g, '');
      for (const n of numbersIn(withoutDates)) {
        if (!byNum.has(n)) dangling.push(`${r.file} names ${n}`);
      }
    }
    expect(dangling).toEqual([]);
  });

  it("a record that amends or supersedes another is named in that one's Status", () => {
    const unsaid: string[] = [];
    for (const r of records) {
      if (r.status === null) continue;
      for (const [verb, back] of [
        ['amends', 'amended by'],
        ['supersedes', 'superseded by'],
      ] as const) {
        for (const old of listAfter(r.status, verb)) {
          const target = byNum.get(old);
          if (!target?.status) continue; // reported by the tests above
          if (!listAfter(target.status, back).includes(r.num)) {
            unsaid.push(`${r.num} ${verb} ${old}, but ${old}'s Status lacks "${back} ${r.num}"`);
          }
        }
      }
    }
    expect(unsaid).toEqual([]);
  });

  it('README.md indexes every record once, and every index line points at a record', () => {
    const index = readIndex();
    const files = new Set(records.map((r) => r.file));
    const missing = records.filter((r) => !index.has(r.file)).map((r) => r.file);
    expect(missing, 'add a line for each to docs/decisions/README.md').toEqual([]);
    const twice = [...index].filter(([, lines]) => lines.length > 1).map(([file]) => file);
    expect(twice).toEqual([]);
    const stale = [...index.keys()].filter((file) => !files.has(file));
    expect(stale).toEqual([]);
  });

  it("README.md's status of each record matches the record's own Status", () => {
    const index = readIndex();
    const differ: string[] = [];
    for (const r of records) {
      const line = index.get(r.file)?.[0];
      if (!line || r.status === null) continue;
      const shown =
        line
          .replace(/\[(\d{4})\]\([^)]*\)/g, '$1')
          .split(' — ')
          .pop() ?? '';
      const want = {
        superseded: listAfter(r.status, 'superseded by').join(', '),
        amended: listAfter(r.status, 'amended by').join(', '),
      };
      const got = {
        superseded: listAfter(shown, 'superseded by').join(', '),
        amended: listAfter(shown, 'amended by').join(', '),
      };
      if (want.superseded !== got.superseded || want.amended !== got.amended) {
        differ.push(`${r.num}: README says "${shown}", the record "${r.status}"`);
      }
    }
    expect(differ).toEqual([]);
  });
});
