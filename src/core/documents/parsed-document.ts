import type { Chars } from '../units';

/**
 * One structural part of a parsed document: the body under a heading, or one PDF page.
 * `text` is exactly `document.text.slice(start, end)`; sections are in order and do not overlap.
 */
export interface DocumentSection {
  /** The heading this section starts with (its own line in `text`), if any. */
  heading?: string;
  /** Enclosing headings from the outermost down, ending with `heading`; empty before any heading. */
  headingPath: readonly string[];
  /** 1-based page number (PDF). */
  page?: number;
  text: string;
  start: Chars;
  end: Chars;
}

/**
 * What every parser (txt, md, html, pdf) returns: the document's full plain text and its
 * structure as character ranges into that text. Offsets are UTF-16 code units of `text`, which
 * is the text passages, citations and the document viewer all refer to.
 */
export interface ParsedDocument {
  title: string;
  mimeType: string;
  text: string;
  sections: DocumentSection[];
}

/** Longest document title kept (X168): a `<title>` of 500,000 characters was stored whole. */
export const MAX_TITLE_CHARS = 300;

/** A parsed title as stored: whitespace collapsed, cut to {@link MAX_TITLE_CHARS} with "…". */
export function documentTitle(raw: string): string {
  const title = raw
    .slice(0, MAX_TITLE_CHARS * 4)
    .replace(/\s+/g, ' ')
    .trim();
  return title.length <= MAX_TITLE_CHARS ? title : `${title.slice(0, MAX_TITLE_CHARS - 1)}…`;
}
