import type * as Pdfjs from 'pdfjs-dist';
import type { TextItem } from 'pdfjs-dist/types/src/display/api';
import type { ParsedDocument } from '../../core/documents/parsed-document';
import { AppError } from '../../core/errors';
import { DocumentBuilder } from './document-builder';
import { FORMAT_MIME, titleFromFileName } from './document-format';

/** The part of pdf.js this parser uses (the browser build or Node's legacy build). */
export type PdfjsLib = Pick<typeof Pdfjs, 'getDocument'>;

interface Line {
  text: string;
  y: number;
  height: number;
}

/**
 * Extracts a PDF's text page by page with pdf.js: one section per page (`page` is 1-based),
 * pages separated by a blank line, lines kept, a blank line where the vertical gap between
 * lines says "new paragraph". pdf.js runs with `isEvalSupported: false` and no font loading, so
 * a hostile PDF cannot run code. The title is the PDF's `Title`, else the file name. Rejects
 * with `document_parse_failed` for a damaged, encrypted or text-less (scanned) PDF, and
 * `cancelled` when `signal` aborts between pages.
 */
export async function parsePdf(
  bytes: Uint8Array,
  fileName: string,
  pdfjs: PdfjsLib,
  signal?: AbortSignal,
): Promise<ParsedDocument> {
  // pdf.js transfers the buffer to its worker; hand it a copy so the caller's bytes survive.
  const task = pdfjs.getDocument({
    data: bytes.slice(),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    enableXfa: false,
    verbosity: 0,
  });
  try {
    const pdf = await task.promise.catch((error: unknown) => {
      const name = error instanceof Error ? error.name : '';
      const why = name === 'PasswordException' ? 'it is password-protected' : 'it is damaged';
      throw new AppError('document_parse_failed', `This PDF cannot be read: ${why}.`, {
        cause: String(error),
      });
    });
    const out = new DocumentBuilder();
    let withText = 0;
    for (let page = 1; page <= pdf.numPages; page += 1) {
      if (signal?.aborted) throw new AppError('cancelled', 'The import was cancelled.');
      const content = await (await pdf.getPage(page)).getTextContent();
      const items = content.items.filter((item): item is TextItem => 'str' in item);
      const text = pageText(items);
      if (text === '') continue;
      withText += 1;
      out.startSection({ page });
      out.append(text);
      out.requestBreak(2);
    }
    if (withText === 0) {
      throw new AppError(
        'document_parse_failed',
        'This PDF has no text layer (scanned pages?); Loci cannot read text from images.',
      );
    }
    const info = (await pdf.getMetadata()).info as { Title?: unknown } | undefined;
    const title =
      typeof info?.Title === 'string' && info.Title.trim() !== '' ? info.Title.trim() : '';
    return out.finish(title || titleFromFileName(fileName), FORMAT_MIME.pdf);
  } finally {
    await task.destroy();
  }
}

/** Joins a page's text items into lines, and lines into text with paragraph gaps. */
export function pageText(items: TextItem[]): string {
  const lines: Line[] = [];
  let line: Line | null = null;
  let endX = 0;
  for (const item of items) {
    const x = Number(item.transform[4] ?? 0);
    const y = Number(item.transform[5] ?? 0);
    const height = Math.abs(Number(item.transform[3] ?? 0)) || item.height || 1;
    if (line !== null && item.str !== '' && Math.abs(y - line.y) > height * 0.5) {
      lines.push(line);
      line = null;
    }
    if (line === null) {
      if (item.str !== '') line = { text: '', y, height };
    } else if (
      item.str !== '' &&
      x - endX > height * 0.15 &&
      !/\s$/.test(line.text) &&
      !/^\s/.test(item.str)
    ) {
      line.text += ' ';
    }
    if (line !== null) {
      line.text += item.str;
      line.height = Math.max(line.height, height);
    }
    endX = x + item.width;
    if (item.hasEOL && line !== null) {
      lines.push(line);
      line = null;
    }
  }
  if (line !== null) lines.push(line);
  let text = '';
  let previous: Line | undefined;
  for (const l of lines) {
    const value = l.text.replace(/[ \t]+/g, ' ').trim();
    if (value === '') continue;
    if (previous !== undefined) {
      const gap = Math.abs(previous.y - l.y);
      text += gap > 1.6 * Math.max(l.height, previous.height) ? '\n\n' : '\n';
    }
    text += value;
    previous = l;
  }
  return text;
}
