import { describe, expect, it } from 'vitest';
import { documentTextFromPassages } from '../../../core/documents/document-text-from-passages';
import type { Passage } from '../../../core/model';
import { viewerSegments, type ViewerSegment } from './viewer-segments';

function passage(id: string, text: string, start: number, page?: number): Passage {
  return {
    id,
    agentId: 'a',
    text,
    source: {
      type: 'document',
      documentId: 'd',
      chunk: 0,
      start,
      end: start + text.length,
      ...(page !== undefined ? { page } : {}),
    },
    tags: [],
    at: 1,
    embedding: null,
    embeddingModel: null,
    dimension: 0,
  };
}

const flat = (segments: ViewerSegment[]) =>
  segments.map((s) => (s.type === 'page' ? `[p${s.page}]` : s.cited ? `<${s.text}>` : s.text));

describe('viewerSegments', () => {
  it('U143: a PDF gets a label where each page begins; the text itself is unchanged', () => {
    const passages = [
      passage('p1', 'First page text.', 0, 1),
      passage('p2', 'More of page one.', 18, 1),
      passage('p3', 'Second page.', 37, 2),
    ];
    const text = documentTextFromPassages(passages);
    const segments = viewerSegments(text, passages, null);
    expect(flat(segments)).toEqual([
      '[p1]',
      'First page text.\n\nMore of page one.\n\n',
      '[p2]',
      'Second page.',
    ]);
    const runs = segments.flatMap((s) => (s.type === 'text' ? [s.text] : []));
    expect(runs.join('')).toBe(text);
  });

  it('U143: the cited range is its own run, also when a page begins inside it', () => {
    const passages = [passage('p1', 'Alpha beta.', 0, 1), passage('p2', 'Gamma delta.', 13, 2)];
    const text = documentTextFromPassages(passages);
    expect(flat(viewerSegments(text, passages, { start: 6, end: 18 }))).toEqual([
      '[p1]',
      'Alpha ',
      '<beta.\n\n>',
      '[p2]',
      '<Gamma>',
      ' delta.',
    ]);
  });

  it('U143: text without pages is one run, and a cited range splits it in three', () => {
    const passages = [passage('p1', 'One two three.', 0)];
    const text = documentTextFromPassages(passages);
    expect(flat(viewerSegments(text, passages, null))).toEqual(['One two three.']);
    expect(flat(viewerSegments(text, passages, { start: 4, end: 7 }))).toEqual([
      'One ',
      '<two>',
      ' three.',
    ]);
  });
});
