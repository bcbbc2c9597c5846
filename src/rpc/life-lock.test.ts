import { afterEach, describe, expect, it, vi } from 'vitest';
import { holdLifeLock, LIFE_LOCK_PREFIX, newLifeLockName, watchLifeLock } from './life-lock';

/**
 * Exclusive Web Locks as the browser keeps them, per holder: `release(holder)` is what the
 * browser does when that holder's context (a worker) goes away.
 */
class FakeLocks {
  private held = new Map<string, string>();
  private waiting: Array<{ name: string; holder: string; grant: () => void }> = [];
  holder = 'page';

  request(
    name: string,
    optionsOrCallback: { signal?: AbortSignal } | (() => unknown),
    maybeCallback?: () => unknown,
  ): Promise<unknown> {
    const callback = typeof optionsOrCallback === 'function' ? optionsOrCallback : maybeCallback!;
    const signal = typeof optionsOrCallback === 'function' ? undefined : optionsOrCallback.signal;
    const holder = this.holder;
    return new Promise((resolve, reject) => {
      const grant = () => {
        this.held.set(name, holder);
        resolve(callback());
      };
      if (!this.held.has(name)) return grant();
      const entry = { name, holder, grant };
      this.waiting.push(entry);
      signal?.addEventListener('abort', () => {
        this.waiting = this.waiting.filter((w) => w !== entry);
        reject(new DOMException('aborted', 'AbortError'));
      });
    });
  }

  release(holder: string): void {
    for (const [name, by] of this.held) {
      if (by !== holder) continue;
      this.held.delete(name);
      const next = this.waiting.find((w) => w.name === name);
      if (next) {
        this.waiting = this.waiting.filter((w) => w !== next);
        next.grant();
      }
    }
  }
}

const settle = () => new Promise((r) => setTimeout(r, 0));

function setUp() {
  const locks = new FakeLocks();
  vi.stubGlobal('navigator', { locks });
  const endpoint = new EventTarget() as unknown as Worker;
  const name = newLifeLockName()!;
  // The worker's scope: what it posts arrives at the page's end as a message event.
  const scope = {
    name,
    postMessage: (data: unknown) => endpoint.dispatchEvent(new MessageEvent('message', { data })),
  };
  return { locks, endpoint, name, scope };
}

afterEach(() => vi.unstubAllGlobals());

describe('life lock (X241)', () => {
  it('X241: the page hears of a worker that went away without an error, and only then', async () => {
    const { locks, endpoint, name, scope } = setUp();
    expect(name.startsWith(LIFE_LOCK_PREFIX)).toBe(true);
    const gone = vi.fn();
    watchLifeLock(endpoint, name, gone);
    locks.holder = 'worker';
    holdLifeLock(scope);
    locks.holder = 'page';
    await settle();
    expect(gone).not.toHaveBeenCalled();
    locks.release('worker');
    await settle();
    expect(gone).toHaveBeenCalledTimes(1);
  });

  it('X241: a worker ended on purpose (the watch stopped first) is not reported as gone', async () => {
    const { locks, endpoint, name, scope } = setUp();
    const gone = vi.fn();
    const stop = watchLifeLock(endpoint, name, gone);
    locks.holder = 'worker';
    holdLifeLock(scope);
    locks.holder = 'page';
    await settle();
    stop();
    locks.release('worker');
    await settle();
    expect(gone).not.toHaveBeenCalled();
  });

  it('X241: without Web Locks, or for a worker with no life-lock name, nothing is watched', async () => {
    vi.stubGlobal('navigator', {});
    expect(newLifeLockName()).toBeNull();
    const gone = vi.fn();
    watchLifeLock(new EventTarget() as unknown as Worker, 'x', gone)();
    const posted = vi.fn();
    vi.stubGlobal('navigator', { locks: new FakeLocks() });
    holdLifeLock({ name: 'backup', postMessage: posted });
    await settle();
    expect(posted).not.toHaveBeenCalled();
    expect(gone).not.toHaveBeenCalled();
  });
});
