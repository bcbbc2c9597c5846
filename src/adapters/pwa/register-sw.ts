import { registerSW } from 'virtual:pwa-register';
import type { PwaState } from '../../ui/state/pwa.svelte';

/** Registers the service worker (prompt mode: never reloads by itself) and reports to `pwa`. */
export function registerServiceWorker(pwa: PwaState): void {
  if (!('serviceWorker' in navigator)) return;
  const updateSW = registerSW({
    immediate: true,
    onNeedRefresh: () => pwa.onNeedRefresh(() => updateSW(true)),
    onOfflineReady: () => pwa.onOfflineReady(),
    onRegisterError: (error: unknown) => {
      // Offline use needs the worker, but the app itself still runs: report and carry on.
      console.warn('Service worker registration failed; offline use is unavailable.', error);
    },
  });
}
