/**
 * Settings that belong to this browser on this device, not to the user's memory: whether Loci
 * asked for persistent storage here, the backup reminder, when this device last made a backup
 * (ADR 0132). They live in `localStorage`, so they never travel in a backup, never touch
 * IndexedDB, and a page that cannot use `localStorage` (some private modes) just forgets them.
 */
import type { DeviceSettings } from '../../core/ports/device-settings';

export type { DeviceSettings };

/** {@link DeviceSettings} over `localStorage` (or another Storage, in tests). */
export function localDeviceSettings(
  storage: Pick<Storage, 'getItem' | 'setItem'> | undefined = globalThis.localStorage,
): DeviceSettings {
  return {
    get<T>(key: string): T | undefined {
      try {
        const raw = storage?.getItem(`loci.${key}`);
        return raw == null ? undefined : (JSON.parse(raw) as T);
      } catch (error) {
        // Unreadable or blocked: as if never set, which only means Loci may ask again.
        console.warn(`device setting ${key} could not be read`, error);
        return undefined;
      }
    },
    set(key: string, value: unknown): void {
      try {
        storage?.setItem(`loci.${key}`, JSON.stringify(value));
      } catch (error) {
        console.warn(`device setting ${key} could not be saved`, error);
      }
    },
  };
}

/** {@link DeviceSettings} in memory (tests, and pages without `localStorage`). */
export function memoryDeviceSettings(): DeviceSettings {
  const values = new Map<string, string>();
  return localDeviceSettings({
    getItem: (key) => values.get(key) ?? null,
    setItem: (key, value) => void values.set(key, value),
  });
}
