import { describe, expect, it } from 'vitest';
import type { Passage } from '../../../core/model';
import { markdownToHtml } from '../../markdown';
import { citedMarkdown, normalizeMarkers } from './cited-markdown';
import { documentHref, parseDocumentsHash } from './document-link';

function passage(id: string, documentId: string | null): Passage {
  return {
    id,
    agentId: 'a1',
    text: 'text',
    source:
      documentId === null
        ? { type: 'memory' }
        : { type: 'document', documentId, chunk: 0, start: 10, end: 20 },
    tags: [],
    at: 1,
    embedding: null,
    embeddingModel: 'm',
    dimension: 8,
  };
}

describe('citations in chat replies', () => {
  it('U138: a known marker becomes a numbered link to the passage; unknown ones vanish', () => {
    const md = citedMarkdown('Oil is in the cellar [^psg_1]. Cats fly [^psg_x].', [
      passage('psg_1', 'doc_1'),
    ]);
    expect(md).toBe(
      'Oil is in the cellar [\\[1\\]](#/documents?doc=doc_1&passage=psg_1 "Open cited passage 1"). Cats fly.',
    );
    const html = markdownToHtml(md);
    expect(html).toContain('href="#/documents?doc=doc_1&amp;passage=psg_1"');
    expect(html).toContain('>[1]</a>');
    expect(html).not.toContain('psg_x');
  });

  it('U138: before the passages are fetched no raw id shows', () => {
    expect(citedMarkdown('Oil is in the cellar [^psg_1].', [])).toBe('Oil is in the cellar.');
  });

  it('U138: the search result format [p:id] that small models copy is a marker too', () => {
    expect(normalizeMarkers('a [p:psg_1] b [^p:psg_2] c [p: psg_3]')).toBe(
      'a [^psg_1] b [^psg_2] c [^psg_3]',
    );
    const md = citedMarkdown('Oil [p:psg_1].', [passage('psg_1', 'doc_1')]);
    expect(md).toContain('[\\[1\\]](#/documents?doc=doc_1&passage=psg_1');
  });

  it('U138: a saved note (not a document passage) is not linked', () => {
    expect(citedMarkdown('Noted [^psg_2].', [passage('psg_2', null)])).toBe('Noted.');
  });

  it('U137: the viewer address round-trips document and passage ids', () => {
    const href = documentHref('doc 1', 'psg&2');
    expect(parseDocumentsHash(href)).toEqual({ documentId: 'doc 1', passageId: 'psg&2' });
    expect(parseDocumentsHash(documentHref('doc_1'))).toEqual({
      documentId: 'doc_1',
      passageId: null,
    });
    expect(parseDocumentsHash('#/documents')).toEqual({ documentId: null, passageId: null });
    expect(parseDocumentsHash('#/chat?doc=x')).toEqual({ documentId: null, passageId: null });
  });

  it('X165 (item 8): a document id with ) " \' ( or ] links to that document and spills no text', () => {
    for (const documentId of ['doc)x', 'doc"y" title', "it's (draft)", 'a]b*c!', 'x\\y <z>']) {
      const html = markdownToHtml(
        citedMarkdown('See [^psg_1] here.', [passage('psg_1', documentId)]),
      );
      const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
      expect(hrefs).toHaveLength(1);
      expect(parseDocumentsHash(hrefs[0]!)).toEqual({ documentId, passageId: 'psg_1' });
      expect(html.replace(/<[^>]*>/g, '')).toBe('See [1] here.\n');
    }
  });
});
