import type { DeviceState } from './state/device.svelte';
import type { PwaState } from './state/pwa.svelte';
import type { Router } from './state/router.svelte';

/** Everything the screens use, built once by the composition root (`src/main.ts`). */
export interface AppServices {
  router: Router;
  device: DeviceState;
  pwa: PwaState;
}
