import type { IdSource } from '../core/ports/clock';

/** Deterministic ids for tests: `prefix-1`, `prefix-2`, … (one counter per prefix). */
export class CounterIds implements IdSource {
  private readonly counters = new Map<string, number>();

  next(prefix = 'id'): string {
    const n = (this.counters.get(prefix) ?? 0) + 1;
    this.counters.set(prefix, n);
    return `${prefix}-${n}`;
  }
}
