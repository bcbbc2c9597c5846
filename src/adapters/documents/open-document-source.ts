import type { DocumentSource, ReadDocument } from '../../core/documents/document-source';
import type { ParsedDocument } from '../../core/documents/parsed-document';
import { AppError } from '../../core/errors';
import { contentHash } from './content-hash';
import { documentFormat, FORMAT_MIME, type DocumentFormat } from './document-format';
import { parsePdf, type PdfjsLib } from './parse-pdf';
import { parseTextFormat } from './parse-text-format';
import { readBlob } from './read-blob';

export interface OpenDocumentOptions {
  /** Loads pdf.js: `loadBrowserPdfjs` in the app, `loadNodePdfjs` in Node. */
  pdfjs: () => Promise<PdfjsLib>;
  /** Overrides the format found from the name/MIME type (e.g. pasted text is `text`). */
  format?: DocumentFormat;
}

/**
 * A {@link DocumentSource} over a `File` (or a `Blob` with a name, e.g. pasted text): read as a
 * stream with progress, hashed with SHA-256, then parsed by format. Throws
 * `document_unsupported` right away for a file type Loci cannot import.
 */
export function openDocumentSource(
  file: Blob,
  name: string,
  options: OpenDocumentOptions,
): DocumentSource {
  const format = options.format ?? documentFormat(name, file.type);
  if (format === null) {
    throw new AppError(
      'document_unsupported',
      `“${name}” is not a text, Markdown, HTML or PDF file.`,
      { name, mimeType: file.type },
    );
  }
  return {
    name,
    mimeType: FORMAT_MIME[format],
    bytes: file.size,
    async read(onProgress, signal): Promise<ReadDocument> {
      const decode = format !== 'pdf';
      const content = await readBlob(file, { decode, onProgress, ...(signal ? { signal } : {}) });
      const hash = await contentHash(content.bytes);
      return {
        contentHash: hash,
        parse: (parseSignal) =>
          parse(format, content.bytes, content.text ?? '', name, options, parseSignal),
      };
    },
  };
}

async function parse(
  format: DocumentFormat,
  bytes: Uint8Array,
  text: string,
  name: string,
  options: OpenDocumentOptions,
  signal?: AbortSignal,
): Promise<ParsedDocument> {
  if (format === 'pdf') return parsePdf(bytes, name, await options.pdfjs(), signal);
  return parseTextFormat(format, text, name);
}
