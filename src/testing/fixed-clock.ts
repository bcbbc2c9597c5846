import type { Clock } from '../core/ports/clock';
import type { EpochMs } from '../core/units';

/** A clock for tests: starts at `start` and moves only when told (`advance`, `set`), or by `stepMs` per read. */
export class FixedClock implements Clock {
  private current: number;

  constructor(
    start: EpochMs = Date.UTC(2026, 0, 1, 9, 0, 0),
    private readonly stepMs = 0,
  ) {
    this.current = start;
  }

  now(): EpochMs {
    const value = this.current;
    this.current += this.stepMs;
    return value;
  }

  advance(ms: number): void {
    this.current += ms;
  }

  set(at: EpochMs): void {
    this.current = at;
  }
}
