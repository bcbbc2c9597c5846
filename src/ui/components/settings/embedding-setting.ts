/** The settings key under which the chosen embedding model id is kept (read by the composition root). */
export const EMBEDDING_MODEL_KEY = 'embed.modelId';

/** What the Settings screen shows of an embedding model (a subset of the engines' `EmbedModelSpec`). */
export interface EmbedChoice {
  id: string;
  label: string;
  downloadBytes: number;
  languages: string;
  dimension: number;
  /** The test fixture (only in the e2e build's list): served by the app, nothing to download. */
  local?: boolean;
}
