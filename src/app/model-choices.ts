import type { ModelChoice } from '../ui/state/agents.svelte';
import type { ModelManagerView } from '../ui/state/model-manager.svelte';
import type { ModelServerState } from '../ui/state/model-server.svelte';

/**
 * The models an agent may keep as its own: the GPU models on this device, the CPU models, and
 * the model of the user's own server once one is saved.
 */
export function modelChoices(
  models: ModelManagerView,
  server: ModelServerState,
): () => ModelChoice[] {
  return () => {
    const state = models.state.models;
    const usable = (id: string) => ['cached', 'loaded'].includes(state[id]?.type ?? '');
    const saved = server.saved() ? server.model : null;
    return [
      ...models.entries
        .filter((e) => usable(e.modelId))
        .map((e) => ({ modelId: e.modelId, label: e.label })),
      ...models.cpuEntries.map((e) => ({ modelId: e.modelId, label: `${e.label} (CPU)` })),
      ...(saved ? [{ modelId: `server:${saved}`, label: `${saved} (your model server)` }] : []),
    ];
  };
}
