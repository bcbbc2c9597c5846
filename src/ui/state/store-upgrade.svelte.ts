/**
 * The schema upgrade that runs while the store opens, as the app shows it (U215, ADR 0171).
 * `report` is fed by the store's upgrade callback; `finish` is called once the store has opened
 * or failed. `running` is true from the first report until then.
 */
export class StoreUpgrade {
  /** Messages rewritten so far, and how many the upgrade will rewrite. */
  done = $state(0);
  total = $state(0);
  running = $state(false);

  report(progress: { done: number; total: number }): void {
    this.done = progress.done;
    this.total = progress.total;
    this.running = true;
  }

  finish(): void {
    this.running = false;
  }

  /** 0..1, for the progress bar; 0 before the total is known. */
  get fraction(): number {
    return this.total > 0 ? Math.min(1, this.done / this.total) : 0;
  }
}
