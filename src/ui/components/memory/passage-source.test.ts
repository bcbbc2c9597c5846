import { describe, expect, it } from 'vitest';
import type { Passage } from '../../../core/model';
import { formatBytes } from './format-bytes';
import { passageHitText, passageSource } from './passage-source';

const passage = (source: Passage['source']): Passage => ({
  id: 'p 1',
  agentId: 'a1',
  text: 't',
  source,
  tags: [],
  at: 0,
  embedding: null,
  embeddingModel: null,
  dimension: 0,
});

describe('passageSource', () => {
  it('U57: a document passage links to its place in the documents screen', () => {
    const src = passageSource(
      passage({
        type: 'document',
        documentId: 'doc/7',
        chunk: 3,
        page: 2,
        start: 0,
        end: 10,
        heading: 'Intro',
      }),
    );
    expect(src).toEqual({
      text: 'A document, passage 4, page 2 · Intro',
      href: '#/documents?doc=doc%2F7&passage=p%201',
    });
  });

  it('U199: a hit names its document by title and counts passages from 1', () => {
    const src = passageSource(
      passage({ type: 'document', documentId: 'd', chunk: 0, start: 0, end: 1 }),
      { title: 'notes.txt' },
    );
    expect(src.text).toBe('“notes.txt”, passage 1');
  });

  it('U199: a Markdown passage shows without its syntax; a text file passage as it is', () => {
    const md = { ...passage({ type: 'document', documentId: 'd', chunk: 0, start: 0, end: 1 }) };
    md.text = '## Fuel\n\n| Kind | Cans |\n|---|---|\n| **Paraffin** | 2 |';
    expect(passageHitText(md, { mimeType: 'text/markdown' })).toBe(
      'Fuel\nKind · Cans\nParaffin · 2',
    );
    expect(passageHitText(md, { mimeType: 'text/plain' })).toBe(md.text);
    expect(passageHitText(md)).toBe(md.text);
  });

  it('U57: memories and imports say who wrote them and have no link', () => {
    expect(passageSource(passage({ type: 'memory', turnId: 't1' }))).toEqual({
      text: 'Saved by the model during a turn',
    });
    expect(passageSource(passage({ type: 'import', note: 'by you' }))).toEqual({
      text: 'Added: by you',
    });
  });
});

describe('formatBytes', () => {
  it('U58: sizes read in binary units, and nonsense reads as a dash', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(10 * 1024 ** 3)).toBe('10.0 GB');
    expect(formatBytes(Number.NaN)).toBe('—');
  });
});
