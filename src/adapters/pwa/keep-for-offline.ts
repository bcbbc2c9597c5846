/**
 * Offline means offline (P30, P31, ADR 0189), wired to the app: on a first visit the page and the
 * LLM worker fetch before the service worker controls them (it claims them once active). As soon
 * as it is active, and again each time a model that runs without a network has loaded, it is asked
 * to keep every code file they fetched, and "ready to work offline" waits until each is found in
 * the caches.
 */
import type { ModelManagerState } from '../../core/ports/model-downloads';
import { browserOfflineEnv, secureOfflineAssets } from './offline-assets';

export interface KeepForOfflineDeps {
  /** What the LLM worker and its engine fetched. */
  engineFetched: () => Promise<string[]>;
  /** The model manager's state, from now on. */
  subscribe: (listener: (state: ModelManagerState) => void) => unknown;
  /** Models that need a network anyway (a model server): nothing to keep for them. */
  needsNetwork: (modelId: string) => boolean;
  /** Called once every file a loaded model needs is in the caches. */
  onReady: () => void;
}

export function keepForOffline(deps: KeepForOfflineDeps): void {
  const env = browserOfflineEnv(deps.engineFetched);
  const check = async (): Promise<boolean> => {
    const result = await secureOfflineAssets(env);
    if (result.type === 'missing')
      console.warn('Not ready to work offline; these files are not cached:', result.urls);
    return result.type === 'ready';
  };
  void check().catch((e: unknown) => console.warn('keeping files for offline failed', e));
  let secured: string | null = null;
  deps.subscribe((state) => {
    const loaded = state.loaded;
    if (loaded === null || deps.needsNetwork(loaded) || loaded === secured) return;
    secured = loaded;
    void check().then(
      (ready) => {
        if (ready) deps.onReady();
        // Not claimed now; the next model load checks again.
        else secured = null;
      },
      (e: unknown) => {
        secured = null;
        console.warn('checking the offline files failed', e);
      },
    );
  });
}
