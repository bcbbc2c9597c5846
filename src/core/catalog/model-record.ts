/**
 * The fields of a web-llm `ModelRecord` the catalog reads. Core cannot import web-llm, so the
 * adapter passes `prebuiltAppConfig.model_list` in; web-llm's records satisfy this shape as they are.
 */
export interface CatalogModelRecord {
  model: string;
  model_id: string;
  model_lib: string;
  vram_required_MB?: number;
  low_resource_required?: boolean;
  buffer_size_required_bytes?: number;
  required_features?: string[];
  /** web-llm's `ModelType` enum: 0 = LLM, 1 = embedding, 2 = VLM. */
  model_type?: number;
  overrides?: { context_window_size?: number };
}
