import { describe, expect, it } from 'vitest';
import { describeImportSummary } from './import-summary';

describe('describeImportSummary', () => {
  it('U156: names what a person knows, with plurals, and never a table name', () => {
    const text = describeImportSummary({
      agents: 1,
      blocks: 2,
      blockHistory: 3,
      messages: 1200,
      documents: 0,
      passages: 1,
      turns: 4,
      steps: 9,
    });
    expect(text).toBe('Restored 1 agent, 1,200 messages and 1 saved memory or document passage.');
    expect(text).not.toMatch(/blockHistory|blocks|steps|turns/);
  });

  it('U156: says when nothing new came in', () => {
    expect(describeImportSummary({ agents: 0, messages: 0 })).toBe(
      'Nothing new: everything in this backup is already here.',
    );
    expect(describeImportSummary({ settings: 2 })).toMatch(/^Restored settings/);
  });

  it('S41: says how many records that referred to deleted messages were left out', () => {
    expect(describeImportSummary({ agents: 1, messages: 4, turns: 2, leftOut: 2 })).toBe(
      'Restored 1 agent and 4 messages. 2 records that referred to deleted messages were left out.',
    );
    expect(describeImportSummary({ messages: 0, leftOut: 1 })).toBe(
      'Nothing new: everything in this backup is already here. 1 record that referred to a deleted message was left out.',
    );
    expect(describeImportSummary({ messages: 3, leftOut: 0 })).toBe('Restored 3 messages.');
  });
});
