import { describe, expect, it } from 'vitest';
import { AT_BOTTOM_PX, distanceFromBottom, followAfterScroll } from './scroll-intent';

const at = (scrollTop: number, scrollHeight = 5000, clientHeight = 600) => ({
  scrollTop,
  scrollHeight,
  clientHeight,
});

describe('followAfterScroll (U150, U151)', () => {
  it('U150: content that grew after our scroll to the bottom does not stop the follow', () => {
    // We scrolled to 4400 of 5000; a 900 px reply landed before the scroll event fired.
    expect(followAfterScroll(true, 4400, at(4400, 5900))).toBe(true);
    expect(distanceFromBottom(at(4400, 5900))).toBe(900);
  });

  it('U151: the reader moving up stops the follow; reaching the bottom resumes it', () => {
    expect(followAfterScroll(true, 4400, at(3000))).toBe(false);
    expect(followAfterScroll(false, 3000, at(3500))).toBe(false);
    expect(followAfterScroll(false, 3500, at(4400 - AT_BOTTOM_PX))).toBe(true);
  });

  it('U150: a list that shrank (the view clamped at its new end) keeps following', () => {
    expect(followAfterScroll(true, 4400, at(4000, 4600))).toBe(true);
  });
});
