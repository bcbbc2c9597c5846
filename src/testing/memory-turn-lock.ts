import type { AgentId } from '../core/model';
import type { ReleaseTurnLock, TurnLock, TurnLockHolder } from '../core/ports/turn-lock';

/** An in-memory {@link TurnLock}: what Web Locks does across tabs, within one process. */
export class MemoryTurnLock implements TurnLock {
  private readonly held = new Map<AgentId, string>();
  /** Shared holders per key, and who waits for an exclusive holder to go. */
  private readonly shared = new Map<string, number>();
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(private readonly clientId = 'test-tab') {}

  acquire(agentId: AgentId): Promise<ReleaseTurnLock | null> {
    if (this.held.has(agentId) || (this.shared.get(agentId) ?? 0) > 0) return Promise.resolve(null);
    this.held.set(agentId, this.clientId);
    return Promise.resolve(() => {
      if (!this.held.delete(agentId)) return;
      for (const wake of this.waiting.get(agentId)?.splice(0) ?? []) wake();
    });
  }

  async share(key: string): Promise<ReleaseTurnLock> {
    while (this.held.has(key)) {
      await new Promise<void>((wake) => {
        const list = this.waiting.get(key) ?? [];
        list.push(wake);
        this.waiting.set(key, list);
      });
    }
    this.shared.set(key, (this.shared.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.shared.set(key, (this.shared.get(key) ?? 1) - 1);
    };
  }

  holder(agentId: AgentId): Promise<TurnLockHolder | null> {
    const clientId = this.held.get(agentId);
    return Promise.resolve(clientId === undefined ? null : { clientId });
  }
}
