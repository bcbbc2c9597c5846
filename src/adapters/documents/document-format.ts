/** The formats Loci imports. */
export type DocumentFormat = 'text' | 'markdown' | 'html' | 'pdf';

/** The MIME type recorded for each format (what `DocumentMeta.mimeType` holds). */
export const FORMAT_MIME: Record<DocumentFormat, string> = {
  text: 'text/plain',
  markdown: 'text/markdown',
  html: 'text/html',
  pdf: 'application/pdf',
};

const BY_EXTENSION: Record<string, DocumentFormat> = {
  txt: 'text',
  text: 'text',
  log: 'text',
  md: 'markdown',
  markdown: 'markdown',
  mdown: 'markdown',
  htm: 'html',
  html: 'html',
  xhtml: 'html',
  pdf: 'pdf',
};

const BY_MIME: Record<string, DocumentFormat> = {
  'text/plain': 'text',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'application/pdf': 'pdf',
};

/**
 * The format of a file from its name, else its MIME type (browsers often report `""` or
 * `application/octet-stream` for `.md`); null when Loci cannot import it.
 */
export function documentFormat(name: string, mimeType: string): DocumentFormat | null {
  const dot = name.lastIndexOf('.');
  const extension = dot >= 0 ? name.slice(dot + 1).toLowerCase() : '';
  const byName = BY_EXTENSION[extension];
  if (byName !== undefined) return byName;
  const mime = mimeType.split(';')[0]?.trim().toLowerCase() ?? '';
  return BY_MIME[mime] ?? null;
}

/** A title from a file name: the name without its directory and extension. */
export function titleFromFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? name;
  const dot = base.lastIndexOf('.');
  const title = (dot > 0 ? base.slice(0, dot) : base).trim();
  return title === '' ? 'Untitled' : title;
}
