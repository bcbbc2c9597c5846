import { describe, expect, it } from 'vitest';
import { canBePartOfUtf8 } from './invalid-utf8-tokens';
import { nativeFault, wllamaSampling } from './wllama-engine';

const bytes = (s: string) => [...Buffer.from(s, 'utf8')];

describe('UTF-8 faults of the CPU engine (E52, ADR 0116)', () => {
  it('E52: a token that ends or starts a character may pass; one that can never be UTF-8 is banned', () => {
    expect(canBePartOfUtf8(bytes('hello'))).toBe(true);
    expect(canBePartOfUtf8(bytes('£ and 你好'))).toBe(true);
    // The first two bytes of 你 (a later token finishes it) and its last byte (ends an earlier one).
    expect(canBePartOfUtf8(bytes('你').slice(0, 2))).toBe(true);
    expect(canBePartOfUtf8(bytes('你').slice(2))).toBe(true);
    expect(canBePartOfUtf8([0x61, 0x8f])).toBe(false); // a continuation byte after ASCII
    expect(canBePartOfUtf8([0xe0, 0x8f])).toBe(false); // overlong
    expect(canBePartOfUtf8([0xf0, 0x8f])).toBe(false); // overlong
    expect(canBePartOfUtf8([0xed, 0xa0])).toBe(false); // a surrogate
    expect(canBePartOfUtf8([0xf4, 0x90])).toBe(false); // past U+10FFFF
    expect(canBePartOfUtf8([0xc0])).toBe(false);
    expect(canBePartOfUtf8([0xe4, 0xbd, 0x61])).toBe(false); // a character cut short inside
  });

  it('E52: the GLUE-length failure is read with the native line before it', () => {
    const glue = new Error('Invalid typed array length: 1163217991');
    expect(
      nativeFault(glue, [
        '[json.exception.type_error.316] invalid UTF-8 byte at index 1: 0x8F',
        'RangeError: Invalid typed array length: 1163217991',
        'Stack trace (exception):\nRangeError: Invalid typed array length: 1163217991',
      ]),
    ).toEqual({
      kind: 'invalid_utf8',
      message: '[json.exception.type_error.316] invalid UTF-8 byte at index 1: 0x8F',
    });
    expect(nativeFault(glue, ['vector::_M_range_check'])).toEqual({
      kind: 'native',
      message: 'vector::_M_range_check',
    });
    expect(nativeFault(glue, [])?.kind).toBe('native');
    expect(nativeFault(new Error('Failed to fetch'), [])).toBeNull();
  });

  it("E53: the request's temperature and top-p go to wllama; a greedy retry samples at 0.3", () => {
    expect(wllamaSampling({ temperature: 0.7, topP: 0.9 }, 1)).toEqual({
      temperature: 0.7,
      top_p: 0.9,
    });
    // A retry keeps a sampled request's settings: only greedy decoding repeats the same bytes.
    expect(wllamaSampling({ temperature: 0.7, topP: 0.9 }, 2)).toEqual({
      temperature: 0.7,
      top_p: 0.9,
    });
    expect(wllamaSampling({ temperature: 0, topP: 0.5 }, 1)).toEqual({
      temperature: 0,
      top_p: 0.5,
    });
    expect(wllamaSampling({ temperature: 0, topP: 0.5 }, 2)).toEqual({
      temperature: 0.3,
      top_p: 0.5,
    });
    expect(wllamaSampling({}, 1)).toEqual({});
  });
});
