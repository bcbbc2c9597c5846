/**
 * Service-worker update and offline state (rule P8). An update is applied only when the user
 * asks and nothing is generating; if a reply is streaming, the update waits until it ends.
 */
import type { DeviceSettings } from '../../core/ports/device-settings';

/** Device setting: the offline notice was shown on this device (it is shown once, U171). */
export const OFFLINE_NOTICE_SHOWN_KEY = 'pwa.offlineNoticeShown';
/** How long "ready to work offline" stays up by itself: it informs, it asks nothing (U153). */
export const OFFLINE_NOTICE_MS = 8000;

export class PwaState {
  needRefresh = $state(false);
  offlineReady = $state(false);
  /** Set when the user accepted an update while a reply was generating. */
  updateQueued = $state(false);

  private applyUpdate: (() => Promise<void>) | null = null;
  private offlineTimer: ReturnType<typeof setTimeout> | null = null;
  /** The service worker holds the app shell (installed now, or on an earlier visit). */
  private shellCached = false;
  /** A model that runs here without a network, and the files it runs on, are cached (P31). */
  private modelCached = false;
  private announced = false;

  constructor(
    private readonly isGenerating: () => boolean,
    private readonly schedule: (run: () => void, ms: number) => ReturnType<typeof setTimeout> = (
      run,
      ms,
    ) => setTimeout(run, ms),
    /** Remembers that the notice was shown; without it the notice shows once per page load. */
    private readonly device?: DeviceSettings,
  ) {}

  /** Called by the registration adapter when a new service worker is waiting. */
  onNeedRefresh(apply: () => Promise<void>): void {
    this.applyUpdate = apply;
    this.needRefresh = true;
  }

  /**
   * Called by the registration adapter when the service worker holds the app shell. The notice
   * waits for a cached model too (U171, ADR 0147): without one, "ready to work offline" is untrue.
   */
  onOfflineReady(): void {
    this.shellCached = true;
    this.announceOffline();
  }

  /**
   * Called by the composition root once a local model has loaded and every file it ran on was
   * found in the caches (P31, ADR 0189): only then is "ready to work offline" true.
   */
  onModelCached(): void {
    this.modelCached = true;
    this.announceOffline();
  }

  private announceOffline(): void {
    if (!this.shellCached || !this.modelCached || this.announced) return;
    this.announced = true;
    if (this.device?.get<boolean>(OFFLINE_NOTICE_SHOWN_KEY)) return;
    this.device?.set(OFFLINE_NOTICE_SHOWN_KEY, true);
    this.offlineReady = true;
    if (this.offlineTimer !== null) clearTimeout(this.offlineTimer);
    this.offlineTimer = this.schedule(() => {
      this.offlineReady = false;
      this.offlineTimer = null;
    }, OFFLINE_NOTICE_MS);
  }

  async update(): Promise<void> {
    if (!this.applyUpdate) return;
    if (this.isGenerating()) {
      this.updateQueued = true;
      return;
    }
    this.needRefresh = false;
    this.updateQueued = false;
    await this.applyUpdate();
  }

  /** The chat calls this when a generation ends, so a queued update can proceed. */
  async generationEnded(): Promise<void> {
    if (this.updateQueued) await this.update();
  }

  dismiss(): void {
    this.needRefresh = false;
    this.offlineReady = false;
  }
}
