/**
 * Service-worker update and offline state (rule P8). An update is applied only when the user
 * asks and nothing is generating; if a reply is streaming, the update waits until it ends.
 */
export class PwaState {
  needRefresh = $state(false);
  offlineReady = $state(false);
  /** Set when the user accepted an update while a reply was generating. */
  updateQueued = $state(false);

  private applyUpdate: (() => Promise<void>) | null = null;

  constructor(private readonly isGenerating: () => boolean) {}

  /** Called by the registration adapter when a new service worker is waiting. */
  onNeedRefresh(apply: () => Promise<void>): void {
    this.applyUpdate = apply;
    this.needRefresh = true;
  }

  onOfflineReady(): void {
    this.offlineReady = true;
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
