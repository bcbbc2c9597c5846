/** A rendered block with the `[start, end)` of the document text it came from. */
export interface SourceRange {
  start: number;
  end: number;
}

/**
 * The indexes of the blocks a citation's `[start, end)` touches (U197): every block whose source
 * range shares at least one character with it, in document order. Empty when nothing overlaps
 * (no citation, or a range outside the text).
 */
export function citedBlockIndexes(
  blocks: readonly SourceRange[],
  cited: SourceRange | null,
): number[] {
  if (cited === null || cited.end <= cited.start) return [];
  const out: number[] = [];
  for (const [i, b] of blocks.entries())
    if (b.start < cited.end && b.end > cited.start) out.push(i);
  return out;
}

/** How the viewer shows a Markdown document; the choice lasts for the tab's session (U198). */
export type ViewerMode = 'formatted' | 'source';

const MODE_KEY = 'loci:document-viewer-mode';

/** The mode chosen earlier in this tab, else formatted. A storage that throws reads as unset. */
export function readViewerMode(storage: Pick<Storage, 'getItem'> | undefined): ViewerMode {
  try {
    return storage?.getItem(MODE_KEY) === 'source' ? 'source' : 'formatted';
  } catch {
    return 'formatted';
  }
}

/** Remembers the mode for this tab's session; a storage that refuses only forgets it. */
export function saveViewerMode(
  storage: Pick<Storage, 'setItem'> | undefined,
  mode: ViewerMode,
): void {
  try {
    storage?.setItem(MODE_KEY, mode);
  } catch {
    // Private modes may refuse storage: the toggle still works for this page.
  }
}

/**
 * Sanitized block HTML with its headings moved `by` levels down (at most h6), so a document's
 * `# Title` sits under the viewer's own h2 and the page's heading order holds (U197). Only tag
 * names change: the input is sanitizer output, where a `<` in text is always escaped.
 */
export function demoteHeadings(html: string, by: number): string {
  return html.replace(
    /<(\/?)h([1-6])(?=[\s>])/g,
    (_m, close: string, level: string) => `<${close}h${Math.min(6, Number(level) + by)}`,
  );
}
