/**
 * The {@link TurnLock} port over Web Locks (rule U40): one tab at a time runs an agent's turns.
 * `acquire` asks with `ifAvailable`, so it never waits; the lock is held until the release
 * function is called (or the tab closes — the browser then frees it by itself, so a crashed tab
 * never blocks the agent).
 */
import type { AgentId } from '../../core/model';
import type { ReleaseTurnLock, TurnLock, TurnLockHolder } from '../../core/ports/turn-lock';

/** The part of `navigator.locks` this adapter uses (injectable for tests). */
export type LockManagerLike = Pick<LockManager, 'request' | 'query'>;

export class WebLocksTurnLock implements TurnLock {
  constructor(
    private readonly locks: LockManagerLike | undefined = globalThis.navigator?.locks,
    private readonly prefix = 'loci-agent:',
  ) {}

  private name(agentId: AgentId): string {
    return `${this.prefix}${agentId}`;
  }

  acquire(agentId: AgentId): Promise<ReleaseTurnLock | null> {
    const locks = this.locks;
    // Without Web Locks (old browsers) there is no other tab to coordinate with that we can see.
    if (!locks) return Promise.resolve(() => undefined);
    return new Promise<ReleaseTurnLock | null>((resolveAcquire, rejectAcquire) => {
      let releaseHeld: (() => void) | null = null;
      const held = new Promise<void>((resolve) => {
        releaseHeld = resolve;
      });
      locks
        .request(this.name(agentId), { ifAvailable: true }, (lock) => {
          if (!lock) {
            resolveAcquire(null);
            return undefined;
          }
          resolveAcquire(() => releaseHeld?.());
          return held;
        })
        .catch(rejectAcquire);
    });
  }

  share(key: string): Promise<ReleaseTurnLock> {
    const locks = this.locks;
    if (!locks) return Promise.resolve(() => undefined);
    return new Promise<ReleaseTurnLock>((resolveShare, rejectShare) => {
      let releaseHeld: (() => void) | null = null;
      const held = new Promise<void>((resolve) => {
        releaseHeld = resolve;
      });
      locks
        .request(this.name(key), { mode: 'shared' }, () => {
          resolveShare(() => releaseHeld?.());
          return held;
        })
        .catch(rejectShare);
    });
  }

  async holder(agentId: AgentId): Promise<TurnLockHolder | null> {
    if (!this.locks) return null;
    const snapshot = await this.locks.query();
    const lock = snapshot.held?.find((l) => l.name === this.name(agentId));
    return lock ? { clientId: lock.clientId ?? 'another tab' } : null;
  }
}
