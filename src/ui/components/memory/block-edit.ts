/**
 * The user's edits of a core block as store writes (U52, U53): an edit or a revert is a new
 * version with its history row, never an overwrite, so every step can be undone. Refusals are
 * values with a sentence for the UI.
 */
import type { BlockVersion, CoreBlock, UntrustedRead } from '../../../core/model';
import type { BlockWrite } from '../../../core/ports/memory-store';
import { err, ok, type Result } from '../../../core/result';
import { diffText, type DiffOp } from '../../../core/text/diff';
import type { EpochMs } from '../../../core/units';

function write(
  block: CoreBlock,
  value: string,
  source: BlockVersion['source'],
  at: EpochMs,
): BlockWrite {
  const version = block.version + 1;
  return {
    block: { ...block, value, version, updatedAt: at },
    history: { agentId: block.agentId, label: block.label, version, value, source, at },
  };
}

function check(block: CoreBlock, value: string): string | null {
  if (block.readOnly) return `Block “${block.label}” is read-only.`;
  if (value.length > block.charLimit) {
    return `That is ${value.length} characters; block “${block.label}” holds at most ${block.charLimit}. Shorten it by ${value.length - block.charLimit}.`;
  }
  return null;
}

/**
 * The write for a user edit of `block` (as the user saw it) to `value`. Refused when the block
 * is read-only, over its limit, unchanged, or changed meanwhile (`current` has a newer version).
 */
export function userEdit(
  seen: CoreBlock,
  current: CoreBlock | undefined,
  value: string,
  at: EpochMs,
): Result<BlockWrite, string> {
  if (!current) return err(`Block “${seen.label}” no longer exists.`);
  if (current.version !== seen.version) {
    return err(
      `Block “${seen.label}” changed while you were editing (now version ${current.version}). Copy your text, cancel and edit again.`,
    );
  }
  if (value === current.value) return err('Nothing changed.');
  const problem = check(current, value);
  return problem ? err(problem) : ok(write(current, value, { type: 'user' }, at));
}

/** The write that makes `target`'s value current again, as a new version with source `revert`. */
export function revertTo(
  current: CoreBlock,
  target: BlockVersion,
  at: EpochMs,
): Result<BlockWrite, string> {
  if (target.version === current.version) return err('That version is the current one.');
  if (target.value === current.value) return err('The current text is already the same.');
  const problem = check(current, target.value);
  return problem
    ? err(problem)
    : ok(write(current, target.value, { type: 'revert', toVersion: target.version }, at));
}

export interface HistoryEntry {
  version: BlockVersion;
  /** Diff from the version before it (everything is an addition for the first). */
  diff: DiffOp[];
  current: boolean;
}

/** History newest first, each with its diff from the previous version (U53). */
export function historyEntries(
  versions: readonly BlockVersion[],
  currentVersion: number,
): HistoryEntry[] {
  const sorted = [...versions].sort((a, b) => a.version - b.version);
  return sorted
    .map((version, i) => ({
      version,
      diff: diffText(sorted[i - 1]?.value ?? '', version.value),
      current: version.version === currentVersion,
    }))
    .reverse();
}

/** A passage the model read, in words: `“report.pdf”, passage 3`. */
export function readText(read: UntrustedRead): string {
  return `“${read.title}”, passage ${read.chunk + 1}`;
}

/** Who wrote a version, in words (a marked edit names what it followed, C15). */
export function sourceText(source: BlockVersion['source']): string {
  switch (source.type) {
    case 'tool': {
      const by = `the model (${source.tool}, step ${source.step})`;
      const first = source.after?.[0];
      return first ? `${by}, after reading ${readText(first)}` : by;
    }
    case 'user':
      return 'you';
    case 'revert':
      return `you, reverting to version ${source.toVersion}`;
    case 'system':
      return 'Loci (initial value)';
  }
}

/** A model edit made after reading document text, with the version a revert goes back to. */
export interface MarkedEdit {
  edit: BlockVersion;
  reads: UntrustedRead[];
  /** The version before the edit (what "Revert" restores), when it is in the history. */
  before: BlockVersion | undefined;
}

/**
 * The edit to review (C15): the current version, when the model wrote it after reading a
 * document passage. Once the user reverts or edits the block, there is nothing to review.
 */
export function markedEdit(
  versions: readonly BlockVersion[],
  currentVersion: number,
): MarkedEdit | null {
  const edit = versions.find((v) => v.version === currentVersion);
  if (edit?.source.type !== 'tool' || !edit.source.after?.length) return null;
  return {
    edit,
    reads: edit.source.after,
    before: versions.find((v) => v.version === currentVersion - 1),
  };
}
