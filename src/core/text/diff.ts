/**
 * A small word/line diff for core-block history: what changed between two versions of a block,
 * as runs of kept, added and removed text. Longest-common-subsequence over tokens, after
 * trimming the common prefix and suffix (most edits touch one spot of a short block).
 */

/** One run of a diff; concatenating the `same` + `removed` runs gives `before`, `same` + `added` gives `after`. */
export interface DiffOp {
  type: 'same' | 'added' | 'removed';
  text: string;
}

/** What a token is: a word, a whitespace run, one Han character, or one other character. */
export type DiffUnit = 'word' | 'line';

// Han characters are their own tokens because Chinese has no spaces between words.
const WORD_TOKENS = /\s+|\p{Script=Han}|[\p{L}\p{N}\p{M}_'’-]+|[^]/gu;

/**
 * Cells of the LCS table above which the diff gives up on precision and reports the middle
 * as one removal plus one addition: 4·10⁶ cells is a few ms and ~16 MB, far above a block
 * (chars ≤ a few thousand) but a guard against pathological input.
 */
const MAX_CELLS = 4_000_000;

function tokenize(text: string, unit: DiffUnit): string[] {
  if (text === '') return [];
  if (unit === 'line') return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  return text.match(WORD_TOKENS) ?? [];
}

function push(ops: DiffOp[], type: DiffOp['type'], text: string): void {
  if (text === '') return;
  const last = ops[ops.length - 1];
  if (last && last.type === type) last.text += text;
  else ops.push({ type, text });
}

function lcsOps(a: readonly string[], b: readonly string[], ops: DiffOp[]): void {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0 || (n + 1) * (m + 1) > MAX_CELLS) {
    push(ops, 'removed', a.join(''));
    push(ops, 'added', b.join(''));
    return;
  }
  // lengths[i][j] = LCS length of a[i..] and b[j..], flattened row-major.
  const width = m + 1;
  const lengths = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i * width + j] =
        a[i] === b[j]
          ? lengths[(i + 1) * width + j + 1]! + 1
          : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
    }
  }
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      push(ops, 'same', a[i]!);
      i++;
      j++;
    } else if (lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!) {
      push(ops, 'removed', a[i]!);
      i++;
    } else {
      push(ops, 'added', b[j]!);
      j++;
    }
  }
  while (i < n) push(ops, 'removed', a[i++]!);
  while (j < m) push(ops, 'added', b[j++]!);
}

/**
 * Diffs `before` against `after` by words (default; whitespace runs, Han characters and
 * punctuation are tokens of their own) or by lines. Adjacent runs of one type are merged; equal
 * texts give one `same` run (or none when both are empty).
 */
export function diffText(before: string, after: string, unit: DiffUnit = 'word'): DiffOp[] {
  const a = tokenize(before, unit);
  const b = tokenize(after, unit);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const ops: DiffOp[] = [];
  push(ops, 'same', a.slice(0, start).join(''));
  lcsOps(a.slice(start, endA), b.slice(start, endB), ops);
  push(ops, 'same', a.slice(endA).join(''));
  return ops;
}
