import { describe, expect, it } from 'vitest';
import { WebLocksTurnLock, type LockManagerLike } from './web-locks-turn-lock';

/** A tiny LockManager with Web Locks' `ifAvailable` semantics, shared by two "tabs". */
function fakeLocks(): LockManagerLike {
  const held = new Map<string, string>();
  let client = 0;
  const manager = {
    request: (async (
      name: string,
      options: LockOptions,
      callback: LockGrantedCallback<unknown>,
    ) => {
      if (held.has(name) && options.ifAvailable) return callback(null);
      const clientId = `client-${(client += 1)}`;
      held.set(name, clientId);
      try {
        return await callback({ name, mode: 'exclusive' } as Lock);
      } finally {
        held.delete(name);
      }
    }) as unknown as LockManager['request'],
    query: async () => ({
      held: [...held].map(([name, clientId]) => ({ name, clientId, mode: 'exclusive' as const })),
      pending: [],
    }),
  };
  return manager;
}

describe('WebLocksTurnLock', () => {
  it('U40: a second tab cannot take an agent that is running, and can once it is released', async () => {
    const locks = fakeLocks();
    const tabA = new WebLocksTurnLock(locks);
    const tabB = new WebLocksTurnLock(locks);
    const release = await tabA.acquire('agent-1');
    expect(release).not.toBeNull();
    expect(await tabB.acquire('agent-1')).toBeNull();
    expect(await tabB.holder('agent-1')).toEqual({ clientId: 'client-1' });
    // Another agent is independent.
    const other = await tabB.acquire('agent-2');
    expect(other).not.toBeNull();
    await release?.();
    await new Promise((r) => setTimeout(r, 0));
    expect(await tabB.holder('agent-1')).toBeNull();
    const again = await tabB.acquire('agent-1');
    expect(again).not.toBeNull();
    await again?.();
    await other?.();
  });

  it('U40: without Web Locks the lock is always granted and nobody holds it', async () => {
    const lock = new WebLocksTurnLock(undefined);
    const release = await lock.acquire('a');
    expect(typeof release).toBe('function');
    expect(await lock.holder('a')).toBeNull();
  });
});
