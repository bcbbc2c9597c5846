import type { Passage } from '../../../core/model';

/** Where a passage came from, in words, with a link when it has a source to open (U57). */
export function passageSource(passage: Passage): { text: string; href?: string } {
  const s = passage.source;
  switch (s.type) {
    case 'document':
      return {
        text: `Document${s.heading ? ` · ${s.heading}` : ''}${s.page !== undefined ? ` · page ${s.page}` : ''} · chunk ${s.chunk}`,
        href: `#/documents?doc=${encodeURIComponent(s.documentId)}&passage=${encodeURIComponent(passage.id)}`,
      };
    case 'memory':
      return { text: s.turnId ? 'Saved by the model during a turn' : 'Saved by the model' };
    case 'import':
      return { text: s.note ? `Added: ${s.note}` : 'Imported' };
  }
}
