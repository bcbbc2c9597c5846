import { describe, expect, it } from 'vitest';
import { parseSessionDate } from './parse-session-date';

describe('parseSessionDate', () => {
  it('V1: reads "1:56 pm on 8 May, 2023" as 13:56 UTC on that day', () => {
    expect(new Date(parseSessionDate('1:56 pm on 8 May, 2023') ?? 0).toISOString()).toBe(
      '2023-05-08T13:56:00.000Z',
    );
  });

  it('V1: 12 am is midnight and 12 pm is noon; case and a missing comma do not matter', () => {
    expect(new Date(parseSessionDate('12:05 am on 1 January 2024') ?? 0).toISOString()).toBe(
      '2024-01-01T00:05:00.000Z',
    );
    expect(new Date(parseSessionDate('12:30 PM on 20 Jan, 2023') ?? 0).toISOString()).toBe(
      '2023-01-20T12:30:00.000Z',
    );
  });

  it('V1: anything that is not a session time is null, including impossible dates', () => {
    expect(parseSessionDate('yesterday')).toBeNull();
    expect(parseSessionDate('1:56 pm on 31 June, 2023')).toBeNull();
    expect(parseSessionDate('13:10 pm on 2 May, 2023')).toBeNull();
  });
});
