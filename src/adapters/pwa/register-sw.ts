import { registerSW } from 'virtual:pwa-register';

/** Where the service worker's news goes (the UI's `PwaState` in the app). */
export interface PwaEvents {
  /** A new version is waiting; `update` activates it and reloads. */
  onNeedRefresh(update: () => Promise<void>): void;
  onOfflineReady(): void;
}

/** Registers the service worker (prompt mode: never reloads by itself) and reports to `pwa`. */
export function registerServiceWorker(pwa: PwaEvents): void {
  if (!('serviceWorker' in navigator)) return;
  const updateSW = registerSW({
    immediate: true,
    onNeedRefresh: () => pwa.onNeedRefresh(() => updateSW(true)),
    onOfflineReady: () => pwa.onOfflineReady(),
    // A worker already active (an earlier visit) holds the shell; onOfflineReady fires only once.
    onRegisteredSW: (_url: string, registration: ServiceWorkerRegistration | undefined) => {
      if (registration?.active) pwa.onOfflineReady();
    },
    onRegisterError: (error: unknown) => {
      // Offline use needs the worker, but the app itself still runs: report and carry on.
      console.warn('Service worker registration failed; offline use is unavailable.', error);
    },
  });
}
