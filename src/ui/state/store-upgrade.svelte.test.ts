import { describe, expect, it } from 'vitest';
import { StoreUpgrade } from './store-upgrade.svelte';

describe('StoreUpgrade (U215)', () => {
  it('U215: runs from the first report until finish, with the fraction of messages rewritten', () => {
    const upgrade = new StoreUpgrade();
    expect(upgrade.running).toBe(false);
    expect(upgrade.fraction).toBe(0);
    upgrade.report({ done: 0, total: 100_000 });
    expect(upgrade.running).toBe(true);
    upgrade.report({ done: 12_000, total: 100_000 });
    expect(upgrade.fraction).toBeCloseTo(0.12);
    upgrade.finish();
    expect(upgrade.running).toBe(false);
  });

  it('U215: an empty upgrade reports a fraction of 0, not NaN', () => {
    const upgrade = new StoreUpgrade();
    upgrade.report({ done: 0, total: 0 });
    expect(upgrade.fraction).toBe(0);
  });
});
