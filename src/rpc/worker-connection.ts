import { newLifeLockName, watchLifeLock } from './life-lock';
import type { RpcConnection } from './rpc-client';

export interface WorkerConnectionOptions {
  /**
   * Watches the worker's life through a Web Lock it holds (X241, ADR 0192), so a worker that
   * goes away without an `error` event counts as a crash too. The worker must call
   * `holdLifeLock(self)`; `create` is then given the lock's name to pass as the worker's `name`.
   */
  lifeLock?: boolean;
}

/**
 * Wraps a dedicated `Worker` as an {@link RpcConnection}: its `error` and `messageerror` events
 * count as crashes — and, with `lifeLock`, the worker going away by any means — and
 * `terminate()` ends it. `create` is called again on every restart.
 */
export function workerConnection(
  create: (name?: string) => Worker,
  options: WorkerConnectionOptions = {},
): () => RpcConnection {
  return () => {
    const name = options.lifeLock ? newLifeLockName() : null;
    const worker = name === null ? create() : create(name);
    const listeners: ((reason: string) => void)[] = [];
    const fire = (reason: string): void => {
      for (const listener of listeners) listener(reason);
    };
    worker.addEventListener('error', (event: ErrorEvent) => {
      event.preventDefault();
      fire(event.message || 'uncaught error in the worker');
    });
    worker.addEventListener('messageerror', () => fire('a message could not be deserialized'));
    const unwatch =
      name === null
        ? () => undefined
        : watchLifeLock(worker, name, () => fire('the browser ended it'));
    return {
      endpoint: worker,
      onCrash: (listener) => listeners.push(listener),
      terminate: () => {
        unwatch();
        worker.terminate();
      },
    };
  };
}
