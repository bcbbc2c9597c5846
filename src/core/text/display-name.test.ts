import { describe, expect, it } from 'vitest';
import { displayName, hasBidiControls } from './display-name';

describe('displayName', () => {
  it('X166 (item 9): a right-to-left override cannot spoof a file name', () => {
    const spoof = 'invoice\u202Efdp.txt';
    const shown = displayName(spoof);
    expect(shown).toBe('invoice[U+202E]fdp.txt');
    expect(hasBidiControls(shown)).toBe(false);
    expect(hasBidiControls(spoof)).toBe(true);
  });

  it('X166: every embedding, override, isolate and mark is neutralised; other scripts stay', () => {
    const controls = '\u061C\u200E\u200F\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069';
    const shown = displayName(`a${controls}b`);
    expect(hasBidiControls(shown)).toBe(false);
    expect(shown.match(/\[U\+[0-9A-F]{4}\]/g)).toHaveLength(controls.length);
    expect(displayName('שלום report — 报告.pdf')).toBe('שלום report — 报告.pdf');
  });
});
