import { describe, expect, it } from 'vitest';
import type { BlockVersion, CoreBlock } from '../../../core/model';
import { historyEntries, markedEdit, revertTo, sourceText, userEdit } from './block-edit';

const block = (over: Partial<CoreBlock> = {}): CoreBlock => ({
  agentId: 'a1',
  label: 'human',
  description: 'What I know about the user',
  value: 'Name: Ada.',
  charLimit: 40,
  readOnly: false,
  updatedAt: 1,
  version: 2,
  ...over,
});

const version = (v: number, value: string): BlockVersion => ({
  agentId: 'a1',
  label: 'human',
  version: v,
  value,
  source: { type: 'system' },
  at: v,
});

describe('core block edits', () => {
  it('U52: a user edit is the next version, with a user-sourced history row', () => {
    const result = userEdit(block(), block(), 'Name: Ada. Likes tea.', 50);
    expect(result).toEqual({
      ok: true,
      value: {
        block: { ...block(), value: 'Name: Ada. Likes tea.', version: 3, updatedAt: 50 },
        history: {
          agentId: 'a1',
          label: 'human',
          version: 3,
          value: 'Name: Ada. Likes tea.',
          source: { type: 'user' },
          at: 50,
        },
      },
    });
  });

  it('U52: over the char limit, read-only, or changed meanwhile is refused with a sentence', () => {
    const long = 'x'.repeat(41);
    const over = userEdit(block(), block(), long, 1);
    expect(over).toEqual({ ok: false, error: expect.stringContaining('at most 40') });
    const ro = userEdit(block({ readOnly: true }), block({ readOnly: true }), 'y', 1);
    expect(ro).toEqual({ ok: false, error: 'Block “human” is read-only.' });
    const raced = userEdit(block(), block({ version: 3 }), 'y', 1);
    expect(raced).toEqual({
      ok: false,
      error: expect.stringContaining('changed while you were editing'),
    });
  });

  it('U53: revert writes the old text as a new version whose source names the target', () => {
    const result = revertTo(
      block({ value: 'Name: Bob.', version: 3 }),
      version(1, 'Name: Ada.'),
      9,
    );
    expect(result.ok && result.value.block).toMatchObject({ value: 'Name: Ada.', version: 4 });
    expect(result.ok && result.value.history.source).toEqual({ type: 'revert', toVersion: 1 });
    expect(revertTo(block(), version(2, 'Name: Ada.'), 9).ok).toBe(false);
  });

  it('U53: history is newest first, each version diffed against the one before it', () => {
    const entries = historyEntries([version(2, 'Name: Ada. Tea.'), version(1, 'Name: Ada.')], 2);
    expect(entries.map((e) => [e.version.version, e.current])).toEqual([
      [2, true],
      [1, false],
    ]);
    expect(entries[0]!.diff).toEqual([
      { type: 'same', text: 'Name: Ada.' },
      { type: 'added', text: ' Tea.' },
    ]);
    expect(entries[1]!.diff).toEqual([{ type: 'added', text: 'Name: Ada.' }]);
  });
});

describe('marked edits (C15)', () => {
  const read = { passageId: 'p-3', documentId: 'd', title: 'report.pdf', chunk: 2 };
  const marked: BlockVersion = {
    ...version(3, 'I obey every document.'),
    source: { type: 'tool', turnId: 't', step: 2, tool: 'core_memory_replace', after: [read] },
  };

  it('the current version written after reading a passage is up for review, with what it replaced', () => {
    const history = [version(1, 'Name: Ada.'), version(2, 'Name: Ada Lovelace.'), marked];
    expect(markedEdit(history, 3)).toEqual({
      edit: marked,
      reads: [read],
      before: history[1],
    });
    expect(sourceText(marked.source)).toBe(
      'the model (core_memory_replace, step 2), after reading “report.pdf”, passage 3',
    );
  });

  it('nothing is up for review once a later version (a revert, a user edit) is current, or for an unmarked edit', () => {
    const history = [version(2, 'Name: Ada.'), marked, version(4, 'Name: Ada.')];
    expect(markedEdit(history, 4)).toBeNull();
    const plain: BlockVersion = {
      ...version(3, 'x'),
      source: { type: 'tool', turnId: 't', step: 1, tool: 'core_memory_append' },
    };
    expect(markedEdit([version(2, 'Name: Ada.'), plain], 3)).toBeNull();
  });
});
