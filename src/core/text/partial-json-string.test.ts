import { describe, expect, it } from 'vitest';
import { partialJsonString } from './partial-json-string';

const after = (s: string, open: string) => s.indexOf(open) + open.length;

describe('partialJsonString', () => {
  it('A9: decodes escapes and stops at the closing quote', () => {
    const raw = '{"message":"line\\none \\"quoted\\" \\u00e9 done","x":1}';
    expect(partialJsonString(raw, after(raw, '"message":"'))).toBe('line\none "quoted" é done');
  });

  it('A9: holds back a half-received escape until it completes', () => {
    expect(partialJsonString('"hi \\', 1)).toBe('hi ');
    expect(partialJsonString('"caf\\u00', 1)).toBe('caf');
    expect(partialJsonString('"caf\\u00e9', 1)).toBe('café');
  });

  it('A9: streams Chinese text as it arrives', () => {
    const raw = '{"section":"我的生日是五';
    expect(partialJsonString(raw, after(raw, '"section":"'))).toBe('我的生日是五');
  });
});
