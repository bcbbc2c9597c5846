import { describe, expect, it } from 'vitest';
import { MAX_SLICE_ROWS, MIN_SLICE_ROWS, SliceSizer } from './slice-sizer';

describe('SliceSizer (X187)', () => {
  it('X187: a slow slice makes the next one smaller, a quick one larger, within bounds', () => {
    const sizer = new SliceSizer(500);
    sizer.took(500, 200);
    expect(sizer.rows).toBe(100);
    sizer.took(100, 1_000);
    expect(sizer.rows).toBe(MIN_SLICE_ROWS);
    sizer.took(50, 5);
    expect(sizer.rows).toBe(100);
    for (let i = 0; i < 10; i += 1) sizer.took(sizer.rows, 1);
    expect(sizer.rows).toBe(MAX_SLICE_ROWS);
    sizer.took(MAX_SLICE_ROWS, 0);
    expect(sizer.rows).toBe(MAX_SLICE_ROWS);
  });
});
