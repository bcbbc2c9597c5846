import { quoteInline } from '../text/inline-text';

/** Longest title the event quotes. */
export const TITLE_CHARS = 200;

/**
 * The event text the agent receives when a document has been imported (role `event`). It names
 * the tool to use, because small models do not infer that archival storage holds documents.
 */
export function documentImportedText(title: string, passages: number): string {
  const count = passages === 1 ? '1 passage' : `${passages} passages`;
  // The title is whoever named the file or shared it: quoted data, capped (ADR 0134); no `<`,
  // `>` or line separator of it reaches the prompt raw (X232).
  const shown = title.length > TITLE_CHARS ? `${title.slice(0, TITLE_CHARS - 1)}…` : title;
  return `Document imported (${count}), titled ${quoteInline(shown)}. Search it with archival_memory_search.`;
}
