import { AppError } from '../core/errors';
import {
  isRpcRequest,
  type CallContext,
  type HandlerMap,
  type RpcEndpoint,
  type RpcResponse,
} from './protocol';

/**
 * Serves a handler map on an endpoint (the worker's global scope, or a `MessagePort` in tests).
 * Each call runs with its own `AbortController` (fired by a `cancel` message); a handler's throw
 * crosses back as a `WireError`, an unknown method as `rpc_unknown_method` (rule W4). Returns a
 * function that stops serving.
 */
export function serveRpc<H extends HandlerMap>(endpoint: RpcEndpoint, handlers: H): () => void {
  const running = new Map<number, AbortController>();
  const post = (message: RpcResponse): void => endpoint.postMessage(message);

  const onMessage = (event: MessageEvent): void => {
    const request: unknown = event.data;
    if (!isRpcRequest(request)) return; // not ours (e.g. a library's own messages on the same port)
    switch (request.type) {
      case 'ping':
        post({ type: 'pong', id: request.id });
        return;
      case 'cancel':
        running.get(request.id)?.abort();
        return;
      case 'call':
        void run(request.id, request.method, request.args);
        return;
    }
  };

  async function run(id: number, method: string, args: unknown): Promise<void> {
    const handler = Object.prototype.hasOwnProperty.call(handlers, method)
      ? handlers[method]
      : undefined;
    if (!handler) {
      post({
        type: 'error',
        id,
        error: new AppError('rpc_unknown_method', `The worker has no method "${method}".`).toWire(),
      });
      return;
    }
    const controller = new AbortController();
    running.set(id, controller);
    const ctx: CallContext<unknown> = {
      signal: controller.signal,
      emit: (e) => {
        if (!controller.signal.aborted) post({ type: 'event', id, event: e });
      },
    };
    try {
      const value = await handler(args, ctx);
      post({ type: 'result', id, value });
    } catch (error) {
      post({ type: 'error', id, error: AppError.from(error).toWire() });
    } finally {
      running.delete(id);
    }
  }

  endpoint.addEventListener('message', onMessage);
  endpoint.start?.();
  return () => {
    endpoint.removeEventListener('message', onMessage);
    for (const controller of running.values()) controller.abort();
    running.clear();
  };
}
