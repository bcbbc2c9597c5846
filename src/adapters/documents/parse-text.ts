import type { ParsedDocument } from '../../core/documents/parsed-document';
import { FORMAT_MIME, titleFromFileName } from './document-format';

/** Line endings normalised to `\n`, so offsets mean the same in every browser. */
export function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/**
 * A plain-text document: the whole (newline-normalised) text as one section; the chunker finds
 * its paragraphs and sentences. The title is the file name without its extension.
 */
export function parseText(text: string, fileName: string): ParsedDocument {
  const normalized = normalizeNewlines(text);
  const start = normalized.search(/\S/);
  const trimmedEnd = normalized.trimEnd().length;
  return {
    title: titleFromFileName(fileName),
    mimeType: FORMAT_MIME.text,
    text: normalized,
    sections:
      start < 0
        ? []
        : [{ headingPath: [], text: normalized.slice(start, trimmedEnd), start, end: trimmedEnd }],
  };
}
