/**
 * The Models screen's rune state (rules U30–U36): mirrors the engines' {@link ModelManager}
 * (download with percent, bytes, speed and ETA; cancel; delete; cache status per model) and adds
 * the catalog for this device, the storage the origin uses, and errors in words.
 */
import type { CatalogEntry } from '../../core/catalog/build-catalog';
import type { CpuCatalogEntry } from '../../core/catalog/build-cpu-catalog';
import type { CpuRuntime } from '../../rpc/llm-api';
import type {
  ModelDownloads,
  ModelManagerState,
  ModelStatus,
} from '../../core/ports/model-downloads';
import { AppError } from '../../core/errors';
import { describeError, type ErrorCopy } from '../error-copy';

/** A model download that failed or was cancelled, in words (U322). */
export interface ModelFailure {
  modelId: string;
  /** The model's name as people read it. */
  label: string;
  code: string;
  what: string;
  action: string;
}

export interface ModelManagerViewDeps {
  manager: ModelDownloads;
  /** The catalog for this device (web-llm's list is in a lazily loaded chunk). */
  catalog: () => Promise<CatalogEntry[]>;
  /** Bytes this origin stores and may store, or null when the browser does not say. */
  usage: () => Promise<{ usage: number; quota: number } | null>;
  /** The CPU (GGUF) models for this device. */
  cpuCatalog?: () => CpuCatalogEntry[];
  /** How the loaded CPU model runs (threads, isolation), or null. */
  cpuRuntime?: () => CpuRuntime | null;
  /** Remembers the loaded model so the next visit can load it again. */
  remember?: (modelId: string | null) => Promise<void>;
}

export class ModelManagerView {
  entries = $state.raw<CatalogEntry[]>([]);
  cpuEntries = $state.raw<CpuCatalogEntry[]>([]);
  runtime = $state.raw<CpuRuntime | null>(null);
  state = $state.raw<ModelManagerState>({ models: {}, loaded: null, busy: null });
  storage = $state.raw<{ usage: number; quota: number } | null>(null);
  /** The last download or delete that failed, in words, and which of the two it was. */
  error = $state.raw<
    (ErrorCopy & { code: string; modelId: string; during: 'load' | 'remove' }) | null
  >(null);
  catalogError = $state.raw<ErrorCopy | null>(null);
  /**
   * The GPU list could not be read because web-llm's code never reached this browser and the
   * network is gone (P32): not a fault, the CPU models still show with their state.
   */
  catalogOffline = $state(false);
  loading = $state(false);

  private unsubscribe: (() => void) | null = null;

  constructor(private readonly deps: ModelManagerViewDeps) {
    // Pure and synchronous: Home can recommend a CPU model before the Models screen opens.
    this.cpuEntries = deps.cpuCatalog?.() ?? [];
  }

  /** Mirrors the manager's state from now on. */
  start(): void {
    if (this.unsubscribe) return;
    this.unsubscribe = this.deps.manager.subscribe((state) => {
      this.state = state;
    });
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  status(modelId: string): ModelStatus {
    return this.state.models[modelId] ?? { type: 'unknown' };
  }

  /** Loads the catalog, then cache status and storage. */
  async refresh(): Promise<void> {
    this.start();
    this.loading = true;
    try {
      this.cpuEntries = this.deps.cpuCatalog?.() ?? [];
      this.entries = await this.deps.catalog();
      this.catalogError = null;
      this.catalogOffline = false;
      await this.deps.manager.refresh([
        ...this.cpuEntries.map((e) => e.modelId),
        ...this.entries.map((e) => e.modelId),
      ]);
    } catch (error) {
      this.catalogOffline = error instanceof AppError && error.code === 'network_unavailable';
      this.catalogError = this.catalogOffline ? null : describeError(error);
      // Without the GPU list the CPU models still say whether they are downloaded or loaded.
      if (this.entries.length === 0) await this.refreshCpuStatus();
    } finally {
      this.loading = false;
    }
    this.storage = await this.deps.usage();
  }

  /**
   * Cache status of the CPU models only: enough for a recommendation on a device without a GPU,
   * without reading web-llm's list (the first run, U192).
   */
  async refreshCpu(): Promise<void> {
    this.start();
    this.cpuEntries = this.deps.cpuCatalog?.() ?? [];
    await this.refreshCpuStatus();
  }

  private async refreshCpuStatus(): Promise<void> {
    try {
      await this.deps.manager.refresh(this.cpuEntries.map((e) => e.modelId));
    } catch (error) {
      console.warn("reading the CPU models' cache status failed", error);
    }
  }

  /** Downloads and loads a model; the error (offline, cancelled, failed) is shown in words. */
  async download(modelId: string): Promise<boolean> {
    this.error = null;
    try {
      await this.deps.manager.download(modelId);
      this.runtime = this.deps.cpuRuntime?.() ?? null;
      await this.deps.remember?.(modelId);
      return true;
    } catch (error) {
      const copy = describeError(error);
      this.error = {
        what: copy.what,
        action: copy.action,
        code: copy.code,
        modelId,
        during: 'load',
      };
      return false;
    } finally {
      this.storage = await this.deps.usage();
    }
  }

  cancel(): void {
    this.deps.manager.cancel();
  }

  async remove(modelId: string): Promise<void> {
    this.error = null;
    try {
      await this.deps.manager.remove(modelId);
      if (this.state.loaded === modelId) await this.deps.remember?.(null);
    } catch (error) {
      const copy = describeError(error);
      this.error = {
        what: copy.what,
        action: copy.action,
        code: copy.code,
        modelId,
        during: 'remove',
      };
    }
    this.storage = await this.deps.usage();
  }
}
