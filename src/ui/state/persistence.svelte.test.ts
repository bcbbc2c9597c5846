import { describe, expect, it } from 'vitest';
import { memoryDeviceSettings } from '../../adapters/storage/device-settings';
import { browserStorageStatus } from '../../adapters/storage/storage-status';
import { PersistenceState } from './persistence.svelte';

function setup(answer: boolean, persistedNow = false) {
  const calls: string[] = [];
  let persisted = persistedNow;
  const status = browserStorageStatus({
    persisted: async () => persisted,
    persist: async () => {
      calls.push('persist');
      persisted = answer;
      return answer;
    },
    estimate: async () => ({ usage: 1, quota: 10 }),
  });
  const device = memoryDeviceSettings();
  let now = 1000;
  const clock = { now: () => (now += 1) };
  return { calls, device, make: () => new PersistenceState({ status, device, clock }) };
}

describe('PersistenceState (P20–P21)', () => {
  it('P20: each moment that matters asks once on this device, and the answer is remembered', async () => {
    const { calls, device, make } = setup(false);
    const state = make();
    expect(await state.ensure('memory')).toBe('best_effort');
    expect(await state.ensure('memory')).toBe('best_effort');
    expect(calls).toEqual(['persist']);
    await state.ensure('document');
    expect(calls).toEqual(['persist', 'persist']);
    expect(state.record.last).toMatchObject({ state: 'best_effort', reason: 'document' });
    // A new page load on the same device remembers what was asked.
    const again = make();
    await again.ensure('memory');
    await again.ensure('document');
    expect(calls.length).toBe(2);
    expect(device.get('storage.persistence')).toEqual(again.record);
    // The dashboard's button always asks.
    await again.ask('user');
    expect(calls.length).toBe(3);
  });

  it('P20: once the browser keeps the data, nothing is asked again', async () => {
    const { calls, make } = setup(true, true);
    const state = make();
    expect(await state.ensure('model')).toBe('persisted');
    expect(calls).toEqual([]);
  });

  it('P21: without navigator.storage the state is unknown and nothing throws', async () => {
    const device = memoryDeviceSettings();
    const state = new PersistenceState({
      status: browserStorageStatus(undefined),
      device,
      clock: { now: () => 1 },
    });
    expect(await state.ensure('install')).toBe('unknown');
    expect(state.record.last?.state).toBe('unknown');
  });
});
