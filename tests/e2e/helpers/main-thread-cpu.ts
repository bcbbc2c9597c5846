/**
 * The page's own work per task, whatever the machine's load (X191, ADR 0174): a Chromium trace of
 * the `toplevel` category records every task the renderer's main thread ran with its wall time
 * (`dur`) and its thread (CPU) time (`tdur`). A long task whose CPU time is small was the main
 * thread waiting for a core, not the app computing.
 */
import type { Browser, Page } from '@playwright/test';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/** The longest main-thread task of a trace: its CPU time, and the longest wall time, in ms. */
export interface MainThreadTasks {
  /** Most CPU (thread) time any one main-thread task took. */
  longestCpuMs: number;
  /** Most wall time any one main-thread task took (what a long-task observer sees). */
  longestWallMs: number;
  tasks: number;
  /** Tasks that carried a CPU time (0: this Chromium records no thread time, nothing measured). */
  timedTasks: number;
}

const TASK_NAMES = new Set(['ThreadControllerImpl::RunTask', 'RunTask']);

/** Starts a `toplevel` trace: one event per task, light enough for a minutes-long import. */
export async function startTaskTrace(browser: Browser, page: Page): Promise<void> {
  await browser.startTracing(page, { categories: ['toplevel'] });
}

/** Stops the trace and measures the renderer main thread's tasks in it. */
export async function stopTaskTrace(browser: Browser): Promise<MainThreadTasks> {
  return mainThreadTasks(await browser.stopTracing());
}

/** The renderer main thread's (`CrRendererMain`) tasks in a Chromium JSON trace. */
export function mainThreadTasks(trace: Buffer): MainThreadTasks {
  const parsed = JSON.parse(trace.toString('utf8')) as TraceEvent[] | { traceEvents: TraceEvent[] };
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
  const main = new Set<string>();
  for (const e of events)
    if (e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      main.add(`${e.pid}:${e.tid}`);
  const result: MainThreadTasks = { longestCpuMs: 0, longestWallMs: 0, tasks: 0, timedTasks: 0 };
  for (const e of events) {
    if (e.ph !== 'X' || !TASK_NAMES.has(e.name) || !main.has(`${e.pid}:${e.tid}`)) continue;
    result.tasks += 1;
    if (e.tdur !== undefined) result.timedTasks += 1;
    // Trace times are in microseconds.
    result.longestCpuMs = Math.max(result.longestCpuMs, (e.tdur ?? 0) / 1000);
    result.longestWallMs = Math.max(result.longestWallMs, (e.dur ?? 0) / 1000);
  }
  return result;
}
