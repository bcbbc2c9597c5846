import { openMemoryStore, type DexieMemoryStore } from '../adapters/storage/dexie/index';
import type { StoreUpgrade } from '../ui/state/store-upgrade.svelte';

/**
 * Opens (and upgrades) database `name`, reporting a schema upgrade's progress to the full-screen
 * status (U215, ADR 0171). The time it takes is measured as `loci:store-open` for the
 * reliability report.
 */
export function openAppStore(name: string, upgrade: StoreUpgrade): Promise<DexieMemoryStore> {
  const start = performance.now();
  const opened = openMemoryStore(name, (progress) => upgrade.report(progress));
  void opened
    .then(() => performance.measure('loci:store-open', { start }))
    // A store that cannot open is shown by the memory services; here only the measure is skipped.
    .catch(() => undefined)
    .finally(() => upgrade.finish());
  return opened;
}
