import type { AgentId } from '../core/model';
import type { ReleaseTurnLock, TurnLock, TurnLockHolder } from '../core/ports/turn-lock';

/** An in-memory {@link TurnLock}: what Web Locks does across tabs, within one process. */
export class MemoryTurnLock implements TurnLock {
  private readonly held = new Map<AgentId, string>();

  constructor(private readonly clientId = 'test-tab') {}

  acquire(agentId: AgentId): Promise<ReleaseTurnLock | null> {
    if (this.held.has(agentId)) return Promise.resolve(null);
    this.held.set(agentId, this.clientId);
    return Promise.resolve(() => {
      this.held.delete(agentId);
    });
  }

  holder(agentId: AgentId): Promise<TurnLockHolder | null> {
    const clientId = this.held.get(agentId);
    return Promise.resolve(clientId === undefined ? null : { clientId });
  }
}
