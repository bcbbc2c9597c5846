import type { AgentId, DocumentId } from '../model';
import type { MemorySearch } from '../ports/memory-search';
import type { MemoryStore } from '../ports/memory-store';

/**
 * Deletes the agent's documents that are not `indexed` — what a crash or a closed tab leaves
 * behind from an import with `commitEvery` — with their passages and index entries; returns their
 * ids. Run it where imports run (the tab holding the agent's lock), before `loadAgent`, never
 * while an import of the agent is in progress: that import's rows look the same.
 */
export async function removeUnfinishedImports(
  deps: { store: MemoryStore; search: MemorySearch },
  agentId: AgentId,
): Promise<DocumentId[]> {
  const unfinished = (await deps.store.listDocuments(agentId)).filter(
    (d) => d.status !== 'indexed',
  );
  for (const document of unfinished) {
    const passageIds = await deps.store.deleteDocument(document.id);
    await deps.search.removePassages(agentId, passageIds);
  }
  return unfinished.map((d) => d.id);
}
