import type { AgentId } from '../../../core/model';
import type { MemorySearch } from '../../../core/ports/memory-search';

/**
 * Loads `agentId`'s indexes into `search` unless it reports that agent already loaded (the
 * search module holds one agent at a time; the session normally loads it on agent switch).
 */
export async function ensureLoaded(search: MemorySearch, agentId: AgentId): Promise<void> {
  const loaded = (search as { agentId?: AgentId | null }).agentId;
  if (loaded !== agentId) await search.loadAgent(agentId);
}

/** Whether `search` can do semantic (vector) search; true when it does not say. */
export function hasSemantic(search: MemorySearch): boolean {
  return (search as { semantic?: boolean }).semantic !== false;
}
