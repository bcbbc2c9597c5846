import { describe, expect, it } from 'vitest';
import { threadsFor } from './wllama-engine';

describe('threadsFor (E42)', () => {
  it('runs llama.cpp on one thread where the page is not cross-origin isolated', () => {
    expect(threadsFor(false, 8)).toBe(1);
    expect(threadsFor(false, 8, 4)).toBe(1);
  });

  it('uses both cores of a two-core machine, and two of three or four', () => {
    expect(threadsFor(true, 1)).toBe(1);
    expect(threadsFor(true, 2)).toBe(2);
    expect(threadsFor(true, 3)).toBe(2);
    expect(threadsFor(true, 4)).toBe(2);
  });

  it('uses half the logical cores of a larger machine, at most eight', () => {
    expect(threadsFor(true, 8)).toBe(4);
    expect(threadsFor(true, 12)).toBe(6);
    expect(threadsFor(true, 32)).toBe(8);
  });

  it('keeps a thread count the model entry asks for, within one to eight', () => {
    expect(threadsFor(true, 8, 3)).toBe(3);
    expect(threadsFor(true, 2, 16)).toBe(8);
    expect(threadsFor(true, 2, 0)).toBe(1);
  });
});
