import type { DocumentId, PassageId } from '../../../core/model';

/** Where the Documents screen should open: the library, or a document at a passage. */
export interface DocumentsRoute {
  documentId: DocumentId | null;
  passageId: PassageId | null;
}

/**
 * `encodeURIComponent` plus the characters it leaves that end or break a Markdown link
 * destination or title: `(`, `)`, `'`, `!`, `*` (an id is data, never syntax; X165).
 */
function encodeId(id: string): string {
  return encodeURIComponent(id).replace(
    /[()'!*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** The hash that opens a document's viewer, optionally at a passage (U137). */
export function documentHref(documentId: DocumentId, passageId?: PassageId): string {
  const doc = `doc=${encodeId(documentId)}`;
  return `#/documents?${doc}${passageId ? `&passage=${encodeId(passageId)}` : ''}`;
}

/** Reads `#/documents?doc=…&passage=…`; other hashes open the library. */
export function parseDocumentsHash(hash: string): DocumentsRoute {
  const match = /^#\/?documents\?(.*)$/.exec(hash);
  if (!match) return { documentId: null, passageId: null };
  const params = new URLSearchParams(match[1]);
  return { documentId: params.get('doc') || null, passageId: params.get('passage') || null };
}
