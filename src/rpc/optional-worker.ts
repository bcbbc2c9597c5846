import { AppError } from '../core/errors';
import type { HandlerMap } from './protocol';
import type { RpcClient } from './rpc-client';

/** A worker API that answers `hello` once it is ready. */
export type HelloApi = HandlerMap & { hello(args: null): Promise<'ready'> };

export interface OptionalWorkerOptions {
  /** Told once, with the reason, when the worker cannot start. */
  onUnavailable?: (reason: string) => void;
  /** How long the first `hello` may take; the subclass gives the default. */
  startMs?: number;
}

/**
 * The page's side of a worker the app can do without (the document and backup workers). The
 * first use checks that the worker starts (`hello`); when it cannot — no `Worker`, a script the
 * browser refuses, no answer in time — `onUnavailable` is told once and {@link available} stays
 * false, so callers take the page path. A worker that crashes later fails that call with
 * `worker_crashed`; the next call starts a fresh worker.
 */
export class OptionalWorkerClient<H extends HelloApi> {
  private started: Promise<boolean> | null = null;

  constructor(
    readonly rpc: RpcClient<H>,
    private readonly label: string,
    private readonly startMs: number,
    private readonly options: OptionalWorkerOptions = {},
  ) {}

  /** True once the worker answered; false (for good) when it could not start. */
  available(): Promise<boolean> {
    this.started ??= this.start();
    return this.started;
  }

  private async start(): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new AppError('worker_unavailable', `The ${this.label} did not answer.`)),
          this.options.startMs ?? this.startMs,
        );
      });
      await Promise.race([this.rpc.call('hello', null), timeout]);
      return true;
    } catch (error) {
      this.rpc.terminate();
      this.options.onUnavailable?.(error instanceof Error ? error.message : String(error));
      return false;
    } finally {
      clearTimeout(timer);
    }
  }
}
