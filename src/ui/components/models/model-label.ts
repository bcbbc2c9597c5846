/**
 * A model's name as people read it (U194, U295): the catalog's label ("Qwen2.5 1.5B"), a model
 * server's model as "<name> (your model server)", or the id when no catalog knows it.
 */
import type { CatalogEntry } from '../../../core/catalog/build-catalog';

export function modelLabel(
  catalogs: {
    entries: readonly Pick<CatalogEntry, 'modelId' | 'label'>[];
    cpuEntries: readonly Pick<CatalogEntry, 'modelId' | 'label'>[];
  },
  modelId: string,
): string {
  return (
    catalogs.entries.find((e) => e.modelId === modelId)?.label ??
    catalogs.cpuEntries.find((e) => e.modelId === modelId)?.label ??
    (modelId.startsWith('server:') ? `${modelId.slice(7)} (your model server)` : modelId)
  );
}
