import type { EpochMs } from '../units';

/** Time, as the core sees it. Tests pass a fixed or stepping clock. */
export interface Clock {
  now(): EpochMs;
}

/** Unique ids, as the core sees them. Tests pass a counter. */
export interface IdSource {
  next(prefix?: string): string;
}
