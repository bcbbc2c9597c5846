import { isServerModel } from '../adapters/llm/openai-endpoint/endpoint-engine';
import type { ModelManagerView } from '../ui/state/model-manager.svelte';
import type { ModelServerState } from '../ui/state/model-server.svelte';

/** The settings key of the model loaded last (the Models screen remembers it). */
export const LOADED_MODEL_KEY = 'llm.modelId';

/**
 * Loads the model used last time, from the cache (no download), once `canReload` says this
 * device can run it and has it. A server model is tried only while a server is saved: the server
 * may be off now, and the Models screen says so.
 */
export async function reloadRememberedModel(deps: {
  store: { getSetting<T>(key: string): Promise<T | undefined> };
  models: ModelManagerView;
  server: ModelServerState;
  /** Settles once the device check (WebGPU probe) has. */
  deviceChecked: Promise<unknown>;
  canReload: (modelId: string) => Promise<boolean>;
}): Promise<void> {
  const modelId = await deps.store.getSetting<string>(LOADED_MODEL_KEY);
  if (!modelId) return;
  await deps.deviceChecked;
  if (isServerModel(modelId)) {
    if (deps.server.saved()) await deps.models.download(modelId);
    return;
  }
  if (!(await deps.canReload(modelId))) return;
  await deps.models.download(modelId);
}
