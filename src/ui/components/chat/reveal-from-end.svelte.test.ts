import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RevealFromEnd } from './reveal-from-end.svelte';

let frames: (() => void)[] = [];
beforeEach(() => {
  frames = [];
  vi.stubGlobal('requestAnimationFrame', (f: () => void) => frames.push(f));
  vi.stubGlobal('cancelAnimationFrame', (id: number) => {
    frames[id - 1] = () => {};
  });
});
afterEach(() => vi.unstubAllGlobals());

/** Runs frames the way the chat's effect does: one step per frame, until nothing is scheduled. */
function runFrames(reveal: RevealFromEnd, total: number): number {
  let ran = 0;
  reveal.grow(total);
  while (frames.length > 0) {
    frames.shift()!();
    ran += 1;
    reveal.grow(total);
  }
  return ran;
}

describe('RevealFromEnd (X189)', () => {
  it('X189: a chat of 200 items shows its newest 20 first, then 20 more above per frame', () => {
    const items = Array.from({ length: 200 }, (_, i) => i);
    const reveal = new RevealFromEnd(20);
    expect(reveal.visible(items)).toEqual(items.slice(180));
    reveal.grow(items.length);
    frames.shift()!();
    expect(reveal.visible(items)).toEqual(items.slice(160));
    expect(runFrames(reveal, items.length)).toBe(8);
    expect(reveal.all).toBe(true);
    expect(reveal.visible(items)).toEqual(items);
  });

  it('X189: once all are shown, a new message adds itself and hides none', () => {
    const reveal = new RevealFromEnd(20);
    runFrames(reveal, 30);
    const grown = Array.from({ length: 31 }, (_, i) => i);
    expect(reveal.visible(grown)).toEqual(grown);
    expect(runFrames(reveal, 31)).toBe(0);
  });

  it('X189: a short chat shows whole at once; an empty one waits for its messages', () => {
    const reveal = new RevealFromEnd(20);
    expect(runFrames(reveal, 0)).toBe(0);
    expect(reveal.all).toBe(false);
    expect(runFrames(reveal, 12)).toBe(0);
    expect(reveal.all).toBe(true);
  });

  it('X189: earlier messages loaded above are revealed from the shown ones up; reset starts over', () => {
    const reveal = new RevealFromEnd(20);
    runFrames(reveal, 50);
    reveal.hold(50);
    const items = Array.from({ length: 250 }, (_, i) => i);
    expect(reveal.visible(items)).toEqual(items.slice(200));
    expect(runFrames(reveal, 250)).toBe(10);
    expect(reveal.visible(items)).toEqual(items);
    reveal.reset();
    expect(reveal.visible(items)).toEqual(items.slice(230));
  });
});
