import { AppError } from '../core/errors';
import {
  isRpcResponse,
  type ArgsOf,
  type EventOf,
  type HandlerMap,
  type ResultOf,
  type RpcEndpoint,
  type RpcRequest,
} from './protocol';

/** One live connection to a worker, made by the client's `connect` factory (and again on restart). */
export interface RpcConnection {
  endpoint: RpcEndpoint;
  /** Registers the crash callback: a worker `error`, a `messageerror`, or the worker going away. */
  onCrash(listener: (reason: string) => void): void;
  /** Ends the worker for good (pending calls are rejected by the client first). */
  terminate(): void;
}

export interface CallOptions<E> {
  signal?: AbortSignal;
  onEvent?: (event: E) => void;
  transfer?: Transferable[];
}

export interface RpcClientOptions {
  /** Pings the worker this often (ms); 0 or unset turns the heartbeat off. */
  heartbeatMs?: number;
  /** A ping unanswered for this long (ms) counts as a crash. Defaults to 3 × heartbeatMs. */
  heartbeatTimeoutMs?: number;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: AppError): void;
  onEvent?: (event: unknown) => void;
  cleanup(): void;
}

/**
 * The caller's side of a worker's handler map `H`: typed `call`s correlated by id, per-call events,
 * cancellation by `AbortSignal`, and crash handling — a crashed worker rejects every pending call
 * with `worker_crashed` (rule W5) and `restart()` connects a fresh one (rule W6).
 */
export class RpcClient<H extends HandlerMap> {
  private connection: RpcConnection | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private lastPong = 0;
  private generation = 0;
  private readonly crashListeners = new Set<(error: AppError) => void>();

  constructor(
    private readonly connect: () => RpcConnection,
    private readonly options: RpcClientOptions = {},
  ) {}

  /** Calls `method` in the worker. Rejects with the worker's `AppError`, `cancelled` or `worker_crashed`. */
  call<K extends keyof H & string>(
    method: K,
    args: ArgsOf<H, K>,
    options: CallOptions<EventOf<H, K>> = {},
  ): Promise<ResultOf<H, K>> {
    const { signal, onEvent, transfer } = options;
    if (signal?.aborted)
      return Promise.reject(new AppError('cancelled', 'The call was cancelled.'));
    const connection = this.ensureConnected();
    const id = this.nextId++;
    return new Promise<ResultOf<H, K>>((resolve, reject) => {
      const onAbort = (): void => {
        this.send({ type: 'cancel', id });
        this.settle(id)?.reject(new AppError('cancelled', 'The call was cancelled.'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        resolve: resolve as (value: unknown) => void,
        reject,
        onEvent: onEvent as ((event: unknown) => void) | undefined,
        cleanup: () => signal?.removeEventListener('abort', onAbort),
      });
      const request: RpcRequest = { type: 'call', id, method, args };
      try {
        connection.endpoint.postMessage(request, transfer ?? []);
      } catch (error) {
        this.settle(id)?.reject(AppError.from(error, 'invalid_argument'));
      }
    });
  }

  /** Number of calls waiting for an answer. */
  pendingCount(): number {
    return this.pending.size;
  }

  /** Subscribes to crashes; returns the unsubscribe function. */
  onCrash(listener: (error: AppError) => void): () => void {
    this.crashListeners.add(listener);
    return () => this.crashListeners.delete(listener);
  }

  /** Treats the worker as crashed: terminates it and rejects every pending call with `worker_crashed`. */
  crash(reason: string): void {
    if (!this.connection) return;
    const error = new AppError('worker_crashed', `The worker stopped: ${reason}`, { reason });
    this.dropConnection(error);
    for (const listener of this.crashListeners) listener(error);
  }

  /** Terminates the current worker (rejecting what is pending) and starts a fresh one. */
  restart(): void {
    this.dropConnection(new AppError('worker_crashed', 'The worker was restarted.'));
    this.ensureConnected();
  }

  /** Terminates the worker; pending calls reject with `worker_crashed`. A later call reconnects. */
  terminate(): void {
    this.dropConnection(new AppError('worker_crashed', 'The worker was terminated.'));
  }

  private ensureConnected(): RpcConnection {
    if (this.connection) return this.connection;
    const connection = this.connect();
    const generation = ++this.generation;
    connection.endpoint.addEventListener('message', this.onMessage);
    connection.endpoint.start?.();
    connection.onCrash((reason) => {
      if (generation === this.generation) this.crash(reason);
    });
    this.connection = connection;
    this.startHeartbeat();
    return connection;
  }

  private dropConnection(error: AppError): void {
    const connection = this.connection;
    this.connection = null;
    this.generation++;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    if (connection) {
      connection.endpoint.removeEventListener('message', this.onMessage);
      connection.terminate();
    }
    for (const id of [...this.pending.keys()]) this.settle(id)?.reject(error);
  }

  private startHeartbeat(): void {
    const every = this.options.heartbeatMs ?? 0;
    if (every <= 0) return;
    const timeout = this.options.heartbeatTimeoutMs ?? every * 3;
    let sentAt = Date.now();
    this.lastPong = sentAt;
    this.heartbeat = setInterval(() => {
      if (this.lastPong < sentAt && Date.now() - sentAt > timeout) {
        this.crash(`no heartbeat for ${timeout} ms`);
        return;
      }
      if (this.lastPong >= sentAt) {
        sentAt = Date.now();
        this.send({ type: 'ping', id: 0 });
      }
    }, every);
  }

  private send(request: RpcRequest): void {
    this.connection?.endpoint.postMessage(request);
  }

  private settle(id: number): Pending | undefined {
    const entry = this.pending.get(id);
    if (!entry) return undefined;
    this.pending.delete(id);
    entry.cleanup();
    return entry;
  }

  private readonly onMessage = (event: MessageEvent): void => {
    const message: unknown = event.data;
    if (!isRpcResponse(message)) return; // a library's own traffic on the same port
    switch (message.type) {
      case 'pong':
        this.lastPong = Date.now();
        return;
      case 'event':
        this.pending.get(message.id)?.onEvent?.(message.event);
        return;
      case 'result':
        this.settle(message.id)?.resolve(message.value);
        return;
      case 'error':
        this.settle(message.id)?.reject(AppError.fromWire(message.error));
        return;
    }
  };
}
