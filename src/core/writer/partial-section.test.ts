import { describe, expect, it } from 'vitest';
import { partialSection } from './partial-section';

describe('partialSection', () => {
  it('G12: the section streams out of partial JSON, escapes decoded, half escapes held back', () => {
    const full = JSON.stringify({ section: 'Line one.\n"Two" \u00e9 雨', memory: 'm' });
    expect(partialSection(full.slice(0, 5))).toBeNull();
    const prefixes = Array.from({ length: full.length + 1 }, (_, n) =>
      partialSection(full.slice(0, n)),
    );
    const seen = prefixes.filter((p): p is string => p !== null);
    for (let i = 1; i < seen.length; i += 1) expect(seen[i]!.startsWith(seen[i - 1]!)).toBe(true);
    expect(seen.at(-1)).toBe('Line one.\n"Two" é 雨');
    expect(partialSection('{"section": "abc\\')).toBe('abc');
  });
});
