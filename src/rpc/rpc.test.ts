import { describe, expect, it } from 'vitest';
import { AppError } from '../core/errors';
import type { CallContext, RpcEndpoint } from './protocol';
import { RpcClient, type RpcConnection } from './rpc-client';
import { serveRpc } from './serve-rpc';

// A `type` (not an `interface`) so it satisfies HandlerMap's index signature.
type TestApi = {
  add(args: { a: number; b: number }): Promise<number>;
  count(args: { upTo: number }, ctx: CallContext<{ type: 'tick'; n: number }>): Promise<string>;
  fail(args: { code: 'not_found' | 'internal' }): Promise<never>;
  wait(args: null, ctx: CallContext<never>): Promise<'aborted' | 'done'>;
  hang(args: null): Promise<never>;
  vector(args: { n: number }): Float32Array;
};

/** A worker stand-in: the server runs on one end of a MessageChannel, the client on the other. */
function harness(options?: { heartbeatMs?: number; silent?: boolean }) {
  const state = { connects: 0, terminated: 0, crash: (_reason: string) => {}, waitAborted: false };
  const connect = (): RpcConnection => {
    const channel = new MessageChannel();
    state.connects += 1;
    const stop = options?.silent
      ? () => {}
      : serveRpc<TestApi>(channel.port2 as unknown as RpcEndpoint, {
          add: async ({ a, b }) => a + b,
          count: async ({ upTo }, ctx) => {
            for (let n = 1; n <= upTo; n += 1) ctx.emit({ type: 'tick', n });
            return 'counted';
          },
          fail: async ({ code }) => {
            throw new AppError(code, `failed with ${code}`, { hint: 42 });
          },
          wait: (_args, ctx) =>
            new Promise((resolve) =>
              ctx.signal.addEventListener('abort', () => {
                state.waitAborted = true;
                resolve('aborted');
              }),
            ),
          hang: () => new Promise<never>(() => {}),
          vector: ({ n }) => Float32Array.from({ length: n }, (_, i) => i / 2),
        });
    return {
      endpoint: channel.port1 as unknown as RpcEndpoint,
      onCrash: (listener) => {
        state.crash = listener;
      },
      terminate: () => {
        state.terminated += 1;
        stop();
        channel.port1.close();
        channel.port2.close();
      },
    };
  };
  const client = new RpcClient<TestApi>(connect, { heartbeatMs: options?.heartbeatMs });
  return { client, state };
}

describe('worker RPC', () => {
  it('W1: a call round-trips its typed arguments and result, and structured data survives', async () => {
    const { client } = harness();
    await expect(client.call('add', { a: 2, b: 3 })).resolves.toBe(5);
    const v = await client.call('vector', { n: 4 });
    expect(v).toBeInstanceOf(Float32Array);
    expect([...v]).toEqual([0, 0.5, 1, 1.5]);
    client.terminate();
  });

  it('W1: concurrent calls are correlated by id', async () => {
    const { client } = harness();
    const results = await Promise.all([1, 2, 3, 4].map((a) => client.call('add', { a, b: 10 })));
    expect(results).toEqual([11, 12, 13, 14]);
    client.terminate();
  });

  it('W2: events emitted by a handler reach only that call, in order, before its result', async () => {
    const { client } = harness();
    const ticks: number[] = [];
    const other: number[] = [];
    const [a] = await Promise.all([
      client.call('count', { upTo: 5 }, { onEvent: (e) => ticks.push(e.n) }),
      client.call('count', { upTo: 2 }, { onEvent: (e) => other.push(e.n) }),
    ]);
    expect(a).toBe('counted');
    expect(ticks).toEqual([1, 2, 3, 4, 5]);
    expect(other).toEqual([1, 2]);
    client.terminate();
  });

  it('W3: aborting the signal rejects with cancelled and aborts the handler in the worker', async () => {
    const { client, state } = harness();
    const controller = new AbortController();
    const call = client.call('wait', null, { signal: controller.signal });
    await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: 'cancelled' });
    await new Promise((r) => setTimeout(r, 10));
    expect(state.waitAborted).toBe(true);
    await expect(
      client.call('add', { a: 1, b: 1 }, { signal: AbortSignal.abort() }),
    ).rejects.toMatchObject({ code: 'cancelled' });
    client.terminate();
  });

  it('W4: a thrown AppError crosses with its code, message and details; unknown methods are named', async () => {
    const { client } = harness();
    const error = await client.call('fail', { code: 'not_found' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'not_found',
      message: 'failed with not_found',
      details: { hint: 42 },
    });
    const unknown = await (client as unknown as RpcClient<Record<string, () => unknown>>)
      .call('nope', undefined)
      .catch((e: unknown) => e);
    expect(unknown).toMatchObject({ code: 'rpc_unknown_method' });
    client.terminate();
  });

  it('W5: a crash rejects every pending call with worker_crashed', async () => {
    const { client, state } = harness();
    const calls = [client.call('hang', null), client.call('hang', null), client.call('hang', null)];
    await new Promise((r) => setTimeout(r, 10));
    expect(client.pendingCount()).toBe(3);
    const seen: string[] = [];
    client.onCrash((e) => seen.push(e.code));
    state.crash('uncaught TypeError');
    const results = await Promise.allSettled(calls);
    for (const r of results) {
      expect(r.status).toBe('rejected');
      expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'worker_crashed' });
    }
    expect(seen).toEqual(['worker_crashed']);
    expect(state.terminated).toBe(1);
    expect(client.pendingCount()).toBe(0);
  });

  it('W6: after a crash, restart connects a fresh worker that answers calls', async () => {
    const { client, state } = harness();
    const pending = client.call('hang', null);
    state.crash('gone');
    await expect(pending).rejects.toMatchObject({ code: 'worker_crashed' });
    client.restart();
    await expect(client.call('add', { a: 20, b: 22 })).resolves.toBe(42);
    expect(state.connects).toBe(2);
    client.terminate();
  });

  it('W6: restart while calls are pending rejects them with worker_crashed (download cancel)', async () => {
    const { client, state } = harness();
    const pending = client.call('hang', null);
    client.restart();
    await expect(pending).rejects.toMatchObject({ code: 'worker_crashed' });
    expect(state.terminated).toBe(1);
    await expect(client.call('add', { a: 1, b: 2 })).resolves.toBe(3);
    client.terminate();
  });

  it('W7: a worker that stops answering heartbeats is declared crashed', async () => {
    const { client } = harness({ heartbeatMs: 10, silent: true });
    const pending = client.call('hang', null);
    await expect(pending).rejects.toMatchObject({ code: 'worker_crashed' });
  });
});
