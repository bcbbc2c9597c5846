/**
 * Wall time of each phase of a long reliability spec, with the page's JS heap after it (Chromium's
 * `performance.memory`, what a phase left behind). Each phase prints one line as it ends, so a run
 * that fails later still shows how far it got and how long each step took.
 */
import type { Page } from '@playwright/test';

interface Phase {
  name: string;
  seconds: number;
  heapMB: number | null;
}

export class PhaseTimings {
  private readonly phases: Phase[] = [];
  private last = Date.now();

  constructor(private readonly page: Page) {}

  /** Ends the phase that began when the previous one ended (or at construction). */
  async end(name: string): Promise<void> {
    const seconds = (Date.now() - this.last) / 1000;
    const heap = await this.page
      .evaluate(
        () =>
          (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory
            ?.usedJSHeapSize ?? null,
      )
      .catch(() => null);
    const heapMB = heap === null ? null : Math.round(heap / (1024 * 1024));
    this.phases.push({ name, seconds, heapMB });
    console.log(
      `[phase] ${name}: ${seconds.toFixed(1)} s${heapMB === null ? '' : `, JS heap ${heapMB} MB`}`,
    );
    this.last = Date.now();
  }

  /** `<name> s` and `<name> heap MB` for each phase, for a reliability record's details. */
  details(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const p of this.phases) {
      out[`${p.name} s`] = Math.round(p.seconds * 10) / 10;
      if (p.heapMB !== null) out[`${p.name} heap MB`] = p.heapMB;
    }
    return out;
  }
}
