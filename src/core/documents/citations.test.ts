import { describe, expect, it } from 'vitest';
import type { Passage } from '../model';
import { CITATION_INSTRUCTION, citationMarker, citedPassageIds, linkCitations } from './citations';

const passage = (id: string, over: Partial<Passage['source']> = {}): Passage => ({
  id,
  agentId: 'a',
  text: `text of ${id}`,
  source: {
    type: 'document',
    documentId: 'doc_1',
    chunk: 0,
    start: 10,
    end: 50,
    ...over,
  } as Passage['source'],
  tags: [],
  at: 0,
  embedding: null,
  embeddingModel: null,
  dimension: 0,
});

const known = [
  passage('psg_1', { page: 3, heading: 'Lamp › Fuel' } as Partial<Passage['source']>),
  passage('psg_2', { documentId: 'doc_2', start: 0, end: 120 } as Partial<Passage['source']>),
  { ...passage('mem_1'), source: { type: 'memory' } } as Passage,
];

describe('citations', () => {
  it('D20: [^ID] markers are found in order, without duplicates', () => {
    expect(citedPassageIds('A [^psg_2] b [^psg_1] c [^psg_2].')).toEqual(['psg_2', 'psg_1']);
    expect(citationMarker('psg_7')).toBe('[^psg_7]');
    // The prompt's own example parses as a citation.
    expect(citedPassageIds(CITATION_INSTRUCTION)).toEqual(['ID', 'psg_12']);
  });

  it('D21: known document passages map to document, page and offsets, numbered by first use', () => {
    const reply = linkCitations('Paraffin is red [^psg_1]. Boats [^psg_2], again [^psg_1].', known);
    expect(reply.citations).toEqual([
      {
        number: 1,
        passageId: 'psg_1',
        documentId: 'doc_1',
        page: 3,
        start: 10,
        end: 50,
        heading: 'Lamp › Fuel',
      },
      { number: 2, passageId: 'psg_2', documentId: 'doc_2', start: 0, end: 120 },
    ]);
    expect(reply.text).toBe('Paraffin is red [1]. Boats [2], again [1].');
    expect(reply.segments.map((s) => (s.type === 'text' ? s.text : s.citation.number))).toEqual([
      'Paraffin is red ',
      1,
      '. Boats ',
      2,
      ', again ',
      1,
      '.',
    ]);
  });

  it('D22: unknown ids and non-document passages are dropped, never rendered as links', () => {
    const reply = linkCitations('Made up [^psg_404]. Memory [^mem_1]. Real [^psg_2].', known);
    expect(reply.text).toBe('Made up. Memory. Real [1].');
    expect(reply.citations.map((c) => c.passageId)).toEqual(['psg_2']);
    expect(reply.segments.filter((s) => s.type === 'citation')).toHaveLength(1);
  });

  it('D20: tolerated variants — several ids in one bracket, spaces, semicolons', () => {
    const reply = linkCitations('Both [^psg_1, ^psg_2] and [^ psg_2 ; psg_404 ].', known);
    expect(reply.text).toBe('Both [1][2] and [2].');
    expect(citedPassageIds('x [^a,b] [^ c ]')).toEqual(['a', 'b', 'c']);
  });

  it('D22: text without markers, and ordinary brackets, pass through untouched', () => {
    const text = 'See [the docs](x) and [1] and [^] here.';
    expect(linkCitations(text, known)).toEqual({
      segments: [{ type: 'text', text }],
      citations: [],
      text,
    });
  });
});
