import { describe, expect, it } from 'vitest';
import type { Passage } from '../model';
import { chunkDocument } from './chunk';
import { documentTextFromPassages } from './document-text-from-passages';
import type { ParsedDocument } from './parsed-document';

const text = [
  '# Notes',
  '',
  Array.from({ length: 30 }, (_, i) => `Line ${i} of the first part goes here.`).join(' '),
  '',
  '## 第二部分',
  '',
  Array.from({ length: 40 }, (_, i) => `第${i}句话很短。`).join(''),
].join('\n');

const parsed: ParsedDocument = {
  title: 'Notes',
  mimeType: 'text/markdown',
  text,
  sections: [
    {
      heading: 'Notes',
      headingPath: ['Notes'],
      text: text.slice(0, text.indexOf('\n\n## ')),
      start: 0,
      end: text.indexOf('\n\n## '),
    },
    {
      heading: '第二部分',
      headingPath: ['Notes', '第二部分'],
      text: text.slice(text.indexOf('## ')),
      start: text.indexOf('## '),
      end: text.length,
    },
  ],
};

const passages: Passage[] = chunkDocument(parsed).map((c) => ({
  id: `p${c.index}`,
  agentId: 'a',
  text: c.text,
  source: { type: 'document', documentId: 'd', chunk: c.index, start: c.start, end: c.end },
  tags: [],
  at: 0,
  embedding: null,
  embeddingModel: null,
  dimension: 0,
}));

describe('documentTextFromPassages', () => {
  it('D38: the rebuilt text puts every passage at its exact offsets, whatever their order', () => {
    expect(passages.length).toBeGreaterThan(3);
    const rebuilt = documentTextFromPassages([...passages].reverse());
    for (const p of passages) {
      if (p.source.type !== 'document') continue;
      expect(rebuilt.slice(p.source.start, p.source.end)).toBe(p.text);
    }
  });

  it('D38: only whitespace differs from the original', () => {
    const rebuilt = documentTextFromPassages(passages);
    expect(rebuilt.length).toBe(text.length);
    expect(rebuilt.replace(/\s+/g, ' ')).toBe(text.replace(/\s+/g, ' '));
  });

  it('U197: with newline gaps a Markdown heading or table row never joins the line before it', () => {
    const md = 'Intro line\n## Fuel\n| a | b |\n|---|---|\n| 1 | 2 |';
    const at = (s: string) => md.indexOf(s);
    const cut = (id: string, start: number, end: number): Passage => ({
      ...passages[0]!,
      id,
      text: md.slice(start, end),
      source: { type: 'document', documentId: 'd', chunk: 0, start, end },
    });
    // Three passages with the single line breaks between them lost.
    const parts = [
      cut('x', 0, at('\n## ')),
      cut('y', at('## '), at('\n| 1')),
      cut('z', at('| 1'), md.length),
    ];
    expect(documentTextFromPassages(parts, 'newlines')).toBe(md);
    // The default fills a one-character gap with a space (PDF word flow).
    expect(documentTextFromPassages(parts)).toContain('Intro line ## Fuel');
  });
});
