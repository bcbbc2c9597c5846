import type { AgentId } from '../model';

/** Gives the lock back. Calling it twice is harmless. */
export type ReleaseTurnLock = () => void | Promise<void>;

/** Who holds an agent's lock, for the "running in another tab" notice. */
export interface TurnLockHolder {
  /** An opaque id of the holding tab or worker (Web Locks `clientId`). */
  clientId: string;
}

/**
 * Single-tab execution of an agent: only the holder of an agent's lock runs its turns. The app
 * implements it with Web Locks (`navigator.locks.request(name, { ifAvailable: true })`); tests
 * use an in-memory one. `acquire` never waits: it returns `null` when another tab holds it.
 */
export interface TurnLock {
  acquire(agentId: AgentId): Promise<ReleaseTurnLock | null>;
  /** The current holder, or null when nobody runs the agent (optional: for the UI notice). */
  holder?(agentId: AgentId): Promise<TurnLockHolder | null>;
  /**
   * Holds `key` in shared mode: any number of holders (tabs) at once, and while any holds it,
   * `acquire(key)` returns null. Waits while an exclusive holder has it. Imports use it so that
   * another tab's sweep never deletes a document still being written (D41).
   */
  share?(key: string): Promise<ReleaseTurnLock>;
}
