/**
 * The longest main-thread task the browser reported (Long Tasks API), from the page's first
 * script on: `observeLongTasks` before `goto`, then read `window.__longest` (reset it to 0 to
 * start a new measurement).
 */
import type { Page } from '@playwright/test';

/** Records every long task from the first script on, in `window.__longest`. */
export async function observeLongTasks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __longest: number };
    w.__longest = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__longest = Math.max(w.__longest, entry.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
}
