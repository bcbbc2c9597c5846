import type { WireError } from '../errors';

/** Where one model stands, for the model screen. */
export type ModelStatus =
  | { type: 'unknown' }
  | { type: 'not_downloaded' }
  /** Some files are cached but not all (an interrupted download): downloading again resumes. */
  | { type: 'partial'; bytes: number }
  | {
      type: 'downloading';
      /** 0..1 */
      fraction: number;
      loadedBytes: number;
      totalBytes: number;
      /** Null until two samples a moment apart exist. */
      bytesPerSecond: number | null;
      etaSeconds: number | null;
      text: string;
    }
  | { type: 'preparing'; fraction: number; text: string }
  | { type: 'cached'; bytes: number }
  | { type: 'loaded'; bytes: number }
  | { type: 'failed'; error: WireError };

export interface ModelManagerState {
  models: Readonly<Record<string, ModelStatus>>;
  /** The model loaded in the engine, if any. */
  loaded: string | null;
  /** The model being downloaded/loaded right now, if any. */
  busy: string | null;
}

/**
 * Downloads, cache status and removal of models, as the Models screen drives them (E19); the
 * adapter's `ModelManager` implements it.
 */
export interface ModelDownloads {
  subscribe(listener: (state: ModelManagerState) => void): () => void;
  getState(): ModelManagerState;
  refresh(modelIds: readonly string[]): Promise<void>;
  download(modelId: string): Promise<void>;
  cancel(): void;
  remove(modelId: string): Promise<void>;
}
