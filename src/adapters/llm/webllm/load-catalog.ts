import type { DeviceVerdict } from '../../../core/capability/gpu-probe';
import { buildCatalog, type CatalogEntry } from '../../../core/catalog/build-catalog';

/** The catalog for this device from web-llm's real prebuilt list (web-llm is imported lazily). */
export async function loadCatalog(device: DeviceVerdict): Promise<CatalogEntry[]> {
  const { prebuiltAppConfig } = await import('@mlc-ai/web-llm');
  return buildCatalog(prebuiltAppConfig.model_list, device);
}
