import type { ParsedDocument } from '../../core/documents/parsed-document';
import { parseHtml } from './parse-html';
import { parseMarkdown } from './parse-markdown';
import { parseText } from './parse-text';

/** The formats that parse from decoded text alone (PDF needs its bytes and pdf.js). */
export type TextDocumentFormat = 'text' | 'markdown' | 'html';

/** Parses decoded text as its format: the one switch the page and the document worker share. */
export function parseTextFormat(
  format: TextDocumentFormat,
  text: string,
  name: string,
): ParsedDocument {
  switch (format) {
    case 'text':
      return parseText(text, name);
    case 'markdown':
      return parseMarkdown(text, name);
    case 'html':
      return parseHtml(text, name);
  }
}
