import { describe, expect, it } from 'vitest';
import { localDeviceSettings, memoryDeviceSettings } from './device-settings';

describe('device settings', () => {
  it('P21: values round-trip as JSON; a store that throws forgets instead of failing', () => {
    const settings = memoryDeviceSettings();
    settings.set('a', { b: [1, 2] });
    expect(settings.get('a')).toEqual({ b: [1, 2] });
    expect(settings.get('missing')).toBeUndefined();
    const blocked = localDeviceSettings({
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    });
    expect(() => blocked.set('x', 1)).not.toThrow();
    expect(blocked.get('x')).toBeUndefined();
    expect(localDeviceSettings(undefined).get('x')).toBeUndefined();
  });
});
