/**
 * Service-worker update and offline state (rule P8). An update is applied only when the user
 * asks and nothing is generating; if a reply is streaming, the update waits until it ends.
 */
/** How long "ready to work offline" stays up by itself: it informs, it asks nothing (U153). */
export const OFFLINE_NOTICE_MS = 8000;

export class PwaState {
  needRefresh = $state(false);
  offlineReady = $state(false);
  /** Set when the user accepted an update while a reply was generating. */
  updateQueued = $state(false);

  private applyUpdate: (() => Promise<void>) | null = null;
  private offlineTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly isGenerating: () => boolean,
    private readonly schedule: (run: () => void, ms: number) => ReturnType<typeof setTimeout> = (
      run,
      ms,
    ) => setTimeout(run, ms),
  ) {}

  /** Called by the registration adapter when a new service worker is waiting. */
  onNeedRefresh(apply: () => Promise<void>): void {
    this.applyUpdate = apply;
    this.needRefresh = true;
  }

  onOfflineReady(): void {
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
