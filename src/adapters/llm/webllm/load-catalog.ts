import type { DeviceVerdict } from '../../../core/capability/gpu-probe';
import { buildCatalog, type CatalogEntry } from '../../../core/catalog/build-catalog';
import type { WorkerLlmEngine } from '../worker-llm-engine';

/**
 * The catalog for this device from web-llm's real prebuilt list, which the LLM worker reads
 * (web-llm is never loaded on the main thread).
 */
export async function loadCatalog(
  device: DeviceVerdict,
  llm: WorkerLlmEngine,
): Promise<CatalogEntry[]> {
  return buildCatalog(await llm.modelRecords(), device);
}
