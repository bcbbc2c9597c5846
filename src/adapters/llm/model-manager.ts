import { AppError } from '../../core/errors';
import type { LoadProgress } from '../../core/ports/llm-engine';
import type {
  ModelDownloads,
  ModelManagerState,
  ModelStatus,
} from '../../core/ports/model-downloads';

export type { ModelManagerState, ModelStatus };

/** The engine side the manager drives (a {@link WorkerLlmEngine} in the app). */
export interface ModelLoader {
  readonly modelId: string | null;
  load(modelId: string, onProgress?: (p: LoadProgress) => void): Promise<void>;
  /** Stops a load in progress (terminates the worker). */
  cancelLoad(): void;
  /** Called when the engine loses its model (worker crash, GPU device lost); returns unsubscribe. */
  onCrash?(listener: () => void): () => void;
}

/** The model cache (web-llm's Cache Storage in the app). */
export interface ModelCache {
  has(modelId: string): Promise<boolean>;
  remove(modelId: string): Promise<void>;
  bytes(modelId: string): Promise<number>;
}

export interface ModelManagerDeps {
  loader: ModelLoader;
  cache: ModelCache;
  /** Milliseconds, for speed and ETA. */
  now: () => number;
  /** `navigator.onLine` in the app. */
  isOnline?: () => boolean;
}

// Speed is measured over the last few seconds so it follows the network, not the whole download.
const SPEED_WINDOW_MS = 5000;

/**
 * The model screen's state (rule E19): download with percent, bytes, speed and ETA; cancel;
 * resume (a new download reuses the shards web-llm already cached); cache status; delete from
 * cache; storage per model. A plain class with `subscribe`, so a Svelte rune class can mirror it.
 */
export class ModelManager implements ModelDownloads {
  private state: ModelManagerState = { models: {}, loaded: null, busy: null };
  private readonly listeners = new Set<(state: ModelManagerState) => void>();
  private samples: { at: number; bytes: number }[] = [];
  private cancelled = false;

  constructor(private readonly deps: ModelManagerDeps) {
    // A crashed worker takes the loaded model with it: the weights stay cached, so it shows as
    // "cached" (ready to load again) rather than "loaded".
    deps.loader.onCrash?.(() => {
      const lost = this.state.loaded;
      if (!lost) return;
      const previous = this.state.models[lost];
      const bytes = previous && 'bytes' in previous ? previous.bytes : 0;
      this.patch({ loaded: null });
      if (this.state.busy !== lost) this.setModel(lost, { type: 'cached', bytes });
    });
  }

  /** Calls `listener` now and on every change; returns the unsubscribe function. */
  subscribe(listener: (state: ModelManagerState) => void): () => void {
    this.listeners.add(listener);
    listener(this.state);
    return () => this.listeners.delete(listener);
  }

  getState(): ModelManagerState {
    return this.state;
  }

  /**
   * Reads cache status and storage for each model. A model whose status changed while its cache
   * was being read (a download started, failed or finished meanwhile) keeps the newer status:
   * the read began before it and would put back what the user just saw change (a failed
   * download's "Try again" turning back into "Download").
   */
  async refresh(modelIds: readonly string[]): Promise<void> {
    for (const id of modelIds) {
      if (this.state.busy === id) continue;
      const before = this.state.models[id];
      const cached = await this.deps.cache.has(id);
      // Bytes of a model that is not fully cached are the shards an interrupted download kept.
      const bytes = await this.deps.cache.bytes(id);
      if (this.state.models[id] !== before || this.state.busy === id) continue;
      this.setModel(
        id,
        !cached
          ? bytes > 0
            ? { type: 'partial', bytes }
            : { type: 'not_downloaded' }
          : this.state.loaded === id
            ? { type: 'loaded', bytes }
            : { type: 'cached', bytes },
      );
    }
  }

  /**
   * Downloads (if needed) and loads a model. Offline with nothing cached fails at once with
   * `network_unavailable`. Resolves when loaded; rejects with the engine's `AppError`, or
   * `model_download_cancelled` after {@link cancel}.
   */
  async download(modelId: string): Promise<void> {
    if (this.state.busy) {
      throw new AppError(
        'invalid_argument',
        `${this.state.busy} is still loading; wait or cancel it first.`,
      );
    }
    this.cancelled = false;
    this.samples = [];
    this.patch({ busy: modelId });
    this.setModel(modelId, { type: 'preparing', fraction: 0, text: 'Checking the cache' });
    try {
      const cached = await this.deps.cache.has(modelId);
      if (!cached && this.deps.isOnline && !this.deps.isOnline()) {
        throw new AppError(
          'network_unavailable',
          'You are offline, so the model cannot be downloaded. Connect to the internet and try again; parts already downloaded are kept.',
          { modelId },
        );
      }
      await this.deps.loader.load(modelId, (p) => this.onProgress(modelId, p));
      const bytes = await this.deps.cache.bytes(modelId);
      if (this.state.loaded && this.state.loaded !== modelId) {
        const previous = this.state.loaded;
        this.setModel(previous, { type: 'cached', bytes: await this.deps.cache.bytes(previous) });
      }
      this.patch({ loaded: modelId, busy: null });
      this.setModel(modelId, { type: 'loaded', bytes });
    } catch (thrown) {
      const error = this.cancelled
        ? new AppError(
            'model_download_cancelled',
            'The download was cancelled; the parts already downloaded are kept.',
          )
        : AppError.from(thrown, 'model_download_failed');
      this.patch({ busy: null, loaded: this.deps.loader.modelId });
      this.setModel(modelId, { type: 'failed', error: error.toWire() });
      throw error;
    }
  }

  /** Cancels the download in progress. Cached shards stay, so downloading again resumes. */
  cancel(): void {
    if (!this.state.busy) return;
    this.cancelled = true;
    this.deps.loader.cancelLoad();
  }

  /** Deletes a model's weights, config and library from the cache. */
  async remove(modelId: string): Promise<void> {
    if (this.state.busy === modelId) {
      throw new AppError('invalid_argument', `${modelId} is loading; cancel the download first.`);
    }
    await this.deps.cache.remove(modelId);
    this.setModel(modelId, { type: 'not_downloaded' });
  }

  private onProgress(modelId: string, p: LoadProgress): void {
    switch (p.type) {
      case 'checking':
        this.setModel(modelId, { type: 'preparing', fraction: 0, text: p.text });
        return;
      case 'compiling':
        this.setModel(modelId, { type: 'preparing', fraction: p.fraction, text: p.text });
        return;
      case 'ready':
        return;
      case 'downloading': {
        const at = this.deps.now();
        this.samples.push({ at, bytes: p.loadedBytes });
        while (this.samples.length > 2 && at - (this.samples[0]?.at ?? at) > SPEED_WINDOW_MS)
          this.samples.shift();
        const first = this.samples[0];
        const elapsed = first ? (at - first.at) / 1000 : 0;
        const speed = first && elapsed > 0 ? (p.loadedBytes - first.bytes) / elapsed : null;
        const eta =
          speed && speed > 0 && p.totalBytes > 0
            ? Math.max(0, (p.totalBytes - p.loadedBytes) / speed)
            : null;
        this.setModel(modelId, {
          type: 'downloading',
          fraction: p.fraction,
          loadedBytes: p.loadedBytes,
          totalBytes: p.totalBytes,
          bytesPerSecond: speed,
          etaSeconds: eta,
          text: p.text,
        });
        return;
      }
    }
  }

  private setModel(modelId: string, status: ModelStatus): void {
    this.patch({ models: { ...this.state.models, [modelId]: status } });
  }

  private patch(changes: Partial<ModelManagerState>): void {
    this.state = { ...this.state, ...changes };
    for (const listener of this.listeners) listener(this.state);
  }
}
