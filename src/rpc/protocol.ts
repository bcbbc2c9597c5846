/**
 * The wire protocol shared by every Loci worker. One handler-map interface per worker (see
 * `llm-api.ts`, `embed-api.ts`) gives the method names, arguments, results and per-call events;
 * everything here is generic over that map, so the client and the server cannot disagree.
 */
import type { WireError } from '../core/errors';

/**
 * What a handler receives besides its arguments: a way to send events tied to this call
 * (streamed text, progress) and the signal that fires when the caller cancels.
 */
export interface CallContext<E = never> {
  /** Sends one event to the caller of this call only. */
  emit(event: E): void;
  /** Aborted when the caller cancels this call (its `AbortSignal` fired). */
  readonly signal: AbortSignal;
}

/**
 * A worker's handler map: each method takes one structured-cloneable argument and a
 * {@link CallContext} whose type parameter is the method's event type. Declare maps with `type`
 * (an `interface` lacks the implicit index signature this constraint needs).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the constraint must accept every concrete handler signature
export type HandlerMap = { [method: string]: (args: any, ctx: CallContext<any>) => unknown };

/** The argument type of `method`. */
export type ArgsOf<H extends HandlerMap, K extends keyof H> = Parameters<H[K]>[0];
/** The result type of `method`, unwrapped from its promise. */
export type ResultOf<H extends HandlerMap, K extends keyof H> = Awaited<ReturnType<H[K]>>;
/** The event type `method` emits while it runs (`never` when it emits none). */
export type EventOf<H extends HandlerMap, K extends keyof H> =
  Parameters<H[K]>[1] extends CallContext<infer E> ? E : never;

/** Caller → worker messages. */
export type RpcRequest =
  | { type: 'call'; id: number; method: string; args: unknown }
  | { type: 'cancel'; id: number }
  | { type: 'ping'; id: number };

/** Worker → caller messages. Every one but `pong` belongs to the call with the same id. */
export type RpcResponse =
  | { type: 'result'; id: number; value: unknown }
  | { type: 'error'; id: number; error: WireError }
  | { type: 'event'; id: number; event: unknown }
  | { type: 'pong'; id: number };

/**
 * The part of `MessagePort` / `Worker` / `DedicatedWorkerGlobalScope` the RPC uses, so the same
 * code runs over a real worker in the browser and over `MessageChannel` in Node tests.
 */
export interface RpcEndpoint {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  /** Present on `MessagePort`: it must be started when listened to with `addEventListener`. */
  start?(): void;
}

/** True for objects shaped like an {@link RpcRequest}. */
export function isRpcRequest(value: unknown): value is RpcRequest {
  if (typeof value !== 'object' || value === null) return false;
  const { type, id } = value as { type?: unknown; id?: unknown };
  return (type === 'call' || type === 'cancel' || type === 'ping') && typeof id === 'number';
}

/** True for objects shaped like an {@link RpcResponse}. */
export function isRpcResponse(value: unknown): value is RpcResponse {
  if (typeof value !== 'object' || value === null) return false;
  const { type, id } = value as { type?: unknown; id?: unknown };
  return (
    (type === 'result' || type === 'error' || type === 'event' || type === 'pong') &&
    typeof id === 'number'
  );
}
