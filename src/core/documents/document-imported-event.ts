/**
 * The event text the agent receives when a document has been imported (role `event`). It names
 * the tool to use, because small models do not infer that archival storage holds documents.
 */
export function documentImportedText(title: string, passages: number): string {
  const count = passages === 1 ? '1 passage' : `${passages} passages`;
  return `Document imported: “${title}” (${count}). Search it with archival_memory_search.`;
}
