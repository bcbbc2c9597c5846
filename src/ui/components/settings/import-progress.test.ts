import { describe, expect, it } from 'vitest';
import { describeImportProgress } from './import-progress';

describe('describeImportProgress', () => {
  it('X188: each stage of an import in plain words, with whole percentages', () => {
    expect(describeImportProgress({ type: 'reading', loadedBytes: 50, totalBytes: 200 })).toBe(
      'Reading the file 25%',
    );
    expect(describeImportProgress({ type: 'checking' })).toBe('Checking the file…');
    expect(describeImportProgress({ type: 'receiving', rows: 999, totalRows: 1000 })).toBe(
      'Preparing the import 99%',
    );
    expect(describeImportProgress({ type: 'comparing', rows: 1, totalRows: 3 })).toBe(
      'Comparing with this device 33%',
    );
    expect(
      describeImportProgress({ type: 'writing', messages: 400_000, totalMessages: 1_000_000 }),
    ).toBe('Importing messages 40%');
  });

  it('X188: a stage with nothing to do is done, not "NaN%"', () => {
    expect(describeImportProgress({ type: 'writing', messages: 0, totalMessages: 0 })).toBe(
      'Importing messages 100%',
    );
  });
});
