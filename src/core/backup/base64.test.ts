import { describe, expect, it } from 'vitest';
import { bytesToFloat32, decodeBase64, encodeBase64, float32ToBytes } from './base64';

describe('base64', () => {
  it('B1: encodes like the platform and round-trips every length', () => {
    for (let n = 0; n < 40; n += 1) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) & 255);
      const text = encodeBase64(bytes);
      expect(text).toBe(Buffer.from(bytes).toString('base64'));
      expect(decodeBase64(text)).toEqual(bytes);
    }
  });

  it('B1: rejects malformed base64', () => {
    expect(decodeBase64('abc')).toBeNull();
    expect(decodeBase64('ab$d')).toBeNull();
    expect(decodeBase64('a=bc')).toBeNull();
  });

  it('B1: Float32 embeddings survive the byte form exactly', () => {
    const v = Float32Array.from([0.1, -2.5, 3e-8, Number.MAX_VALUE, 0]);
    const back = bytesToFloat32(decodeBase64(encodeBase64(float32ToBytes(v)))!);
    expect(back).toEqual(v);
    expect(bytesToFloat32(new Uint8Array(3))).toBeNull();
  });
});
