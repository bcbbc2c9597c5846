import { AppError } from '../errors';
import type { DocumentId, PassageId } from '../model';
import type { MemorySearch } from '../ports/memory-search';
import type { MemoryStore } from '../ports/memory-store';

/**
 * Deletes a document and everything derived from it: the document row and its passages (with
 * their vectors) in one store transaction, then the passages' lexical and vector index entries.
 * Returns the deleted passage ids. Rejects with `not_found` for an unknown id. Other open views
 * see the store change through their live queries; their search indexes drop the passages on
 * their next `loadAgent`.
 */
export async function deleteDocument(
  deps: { store: MemoryStore; search: MemorySearch },
  documentId: DocumentId,
): Promise<PassageId[]> {
  const document = await deps.store.getDocument(documentId);
  if (document === undefined) {
    throw new AppError('not_found', `No document with id "${documentId}".`);
  }
  const passageIds = await deps.store.deleteDocument(documentId);
  await deps.search.removePassages(document.agentId, passageIds);
  return passageIds;
}
