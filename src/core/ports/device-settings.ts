/**
 * Settings that belong to this browser on this device, not to the user's memory: whether Loci
 * asked for persistent storage here, the backup reminder, the own-model-server settings (ADR
 * 0132). The adapter keeps them in `localStorage`; the UI reads them only through this port.
 */
export interface DeviceSettings {
  get<T>(key: string): T | undefined;
  set(key: string, value: unknown): void;
}
