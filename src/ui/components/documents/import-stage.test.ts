import { describe, expect, it } from 'vitest';
import { stageFraction, stageText, typeLabel } from './import-stage';

describe('import stages in words', () => {
  it('U133 X179: read → split x% → chunked → embedded x/N → indexed, with a growing progress bar', () => {
    const stages = [
      { type: 'queued' },
      { type: 'reading', loadedBytes: 50, totalBytes: 100 },
      { type: 'reading', loadedBytes: 100, totalBytes: 100 },
      { type: 'parsing', doneChars: 300, totalChars: 1_000 },
      { type: 'parsing', doneChars: 1_000, totalChars: 1_000 },
      { type: 'chunked', passages: 12 },
      { type: 'embedding', done: 6, total: 12 },
      { type: 'indexing', passages: 12 },
      { type: 'indexed', documentId: 'd', passages: 12 },
    ] as const;
    expect(stages.map(stageText)).toEqual([
      'Waiting to start',
      'Reading 50%',
      'Reading 100%',
      'Splitting into passages 30%',
      'Splitting into passages 100%',
      'Split into 12 passages',
      'Embedding 6/12',
      'Indexing 12 passages',
      'Imported: 12 passages',
    ]);
    const fractions = stages.map(stageFraction);
    expect([...fractions].sort((a, b) => a - b)).toEqual(fractions);
    expect(fractions.at(-1)).toBe(1);
  });

  it('U132/U134: a duplicate names the document; a cancel says nothing was kept', () => {
    expect(stageText({ type: 'duplicate', documentId: 'd', title: 'Handbook' })).toContain(
      '“Handbook”',
    );
    expect(stageText({ type: 'cancelled' })).toContain('nothing was kept');
    expect(typeLabel('application/pdf')).toBe('PDF');
    expect(stageText({ type: 'chunked', passages: 1 })).toBe('Split into 1 passage');
  });
});
