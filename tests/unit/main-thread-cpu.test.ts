/** tests/e2e/helpers/main-thread-cpu.ts: X191 reads the renderer main thread's tasks from a trace. */
import { describe, expect, it } from 'vitest';
import { mainThreadTasks } from '../e2e/helpers/main-thread-cpu';

const meta = (pid: number, tid: number, name: string) => ({
  name: 'thread_name',
  ph: 'M',
  pid,
  tid,
  args: { name },
});
const task = (
  pid: number,
  tid: number,
  dur: number,
  tdur?: number,
  name = 'ThreadControllerImpl::RunTask',
) => ({
  name,
  ph: 'X',
  pid,
  tid,
  dur,
  ...(tdur !== undefined ? { tdur } : {}),
});
const trace = (events: object[]) => Buffer.from(JSON.stringify({ traceEvents: events }));

describe('mainThreadTasks (X191)', () => {
  it('X191: takes the longest CPU and wall time of main-thread tasks, in ms, and nothing else', () => {
    const result = mainThreadTasks(
      trace([
        meta(1, 10, 'CrRendererMain'),
        meta(1, 11, 'DedicatedWorker thread'),
        meta(2, 20, 'CrBrowserMain'),
        // A task that waited for a core: long wall, little CPU.
        task(1, 10, 297_000, 12_000),
        task(1, 10, 92_000, 38_500, 'RunTask'),
        // Busy workers and the browser process are not the page's main thread.
        task(1, 11, 900_000, 900_000),
        task(2, 20, 500_000, 400_000),
        // A complete event that is not a task.
        { name: 'MajorGC', ph: 'X', pid: 1, tid: 10, dur: 800_000, tdur: 800_000 },
      ]),
    );
    expect(result).toEqual({ longestCpuMs: 38.5, longestWallMs: 297, tasks: 2, timedTasks: 2 });
  });

  it('X191: a trace without thread times says so (no task timed), so the test cannot pass on nothing', () => {
    const result = mainThreadTasks(
      Buffer.from(JSON.stringify([meta(1, 10, 'CrRendererMain'), task(1, 10, 150_000)])),
    );
    expect(result).toEqual({ longestCpuMs: 0, longestWallMs: 150, tasks: 1, timedTasks: 0 });
  });
});
