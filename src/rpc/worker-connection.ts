import type { RpcConnection } from './rpc-client';

/**
 * Wraps a dedicated `Worker` as an {@link RpcConnection}: its `error` and `messageerror` events
 * count as crashes, `terminate()` ends it. `create` is called again on every restart.
 */
export function workerConnection(create: () => Worker): () => RpcConnection {
  return () => {
    const worker = create();
    const listeners: ((reason: string) => void)[] = [];
    const fire = (reason: string): void => {
      for (const listener of listeners) listener(reason);
    };
    worker.addEventListener('error', (event: ErrorEvent) => {
      event.preventDefault();
      fire(event.message || 'uncaught error in the worker');
    });
    worker.addEventListener('messageerror', () => fire('a message could not be deserialized'));
    return {
      endpoint: worker,
      onCrash: (listener) => listeners.push(listener),
      terminate: () => worker.terminate(),
    };
  };
}
