import type { DocumentMeta, Passage } from '../../../core/model';
import { markdownToPlainText } from '../../../core/text/markdown-plain-text';

/**
 * Where a passage came from, in words, with a link when it has a source to open (U57): a
 * document passage names its document ("“notes.txt”", or "A document" while the title is not
 * known) and its passage number counted from 1 (U199), never "chunk 0".
 */
export function passageSource(
  passage: Passage,
  document?: Pick<DocumentMeta, 'title'>,
): { text: string; href?: string } {
  const s = passage.source;
  switch (s.type) {
    case 'document':
      return {
        text: `${document ? `“${document.title}”` : 'A document'}, passage ${s.chunk + 1}${s.page !== undefined ? `, page ${s.page}` : ''}${s.heading ? ` · ${s.heading}` : ''}`,
        href: `#/documents?doc=${encodeURIComponent(s.documentId)}&passage=${encodeURIComponent(passage.id)}`,
      };
    case 'memory':
      return { text: s.turnId ? 'Saved by the model during a turn' : 'Saved by the model' };
    case 'import':
      return { text: s.note ? `Added: ${s.note}` : 'Imported' };
  }
}

/**
 * The text a search hit shows for a passage: a Markdown document's passage without its syntax
 * (no `#`, `**` or table pipes, U199), one line per block or table row; any other passage as
 * it is.
 */
export function passageHitText(
  passage: Passage,
  document?: Pick<DocumentMeta, 'mimeType'>,
): string {
  return passage.source.type === 'document' && document?.mimeType === 'text/markdown'
    ? markdownToPlainText(passage.text).replace(/\n{2,}/g, '\n')
    : passage.text;
}
