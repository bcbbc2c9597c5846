import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chunkDocument } from '../../core/documents/chunk';
import { fixturePath } from './fixture-path';
import { parseMarkdown } from './parse-markdown';

const source = readFileSync(fixturePath('handbook.md'), 'utf8');
const md = parseMarkdown(source, 'handbook.md');

describe('parseMarkdown', () => {
  it('D4: ATX and setext headings become sections with heading paths; code fences are not headings', () => {
    expect(md.sections.map((s) => s.headingPath.join(' › '))).toEqual([
      '',
      'Lighthouse Handbook',
      'Lighthouse Handbook › Lamp',
      'Lighthouse Handbook › Lamp › Fuel',
      'Lighthouse Handbook › Logbook',
      'Lighthouse Handbook › Storm Procedure',
    ]);
    const lamp = md.sections[2];
    expect(lamp?.text).toContain('# this is not a heading');
  });

  it('D4: the text is the Markdown source, so every section is an exact slice of the file', () => {
    expect(md.text).toBe(source);
    for (const s of md.sections) expect(source.slice(s.start, s.end)).toBe(s.text);
  });

  it('D4: the title comes from front matter, else the first h1, else the file name', () => {
    expect(md.title).toBe('Lighthouse Handbook');
    expect(parseMarkdown('intro\n\n# The **Big** [Guide](x.md)\n', 'a.md').title).toBe(
      'The Big Guide',
    );
    expect(parseMarkdown('no headings', 'dir/notes.md').title).toBe('notes');
  });

  it('D4: CRLF line endings are normalised', () => {
    const d = parseMarkdown('# A\r\n\r\ntext\r\n## B\r\nmore', 'a.md');
    expect(d.text).toBe('# A\n\ntext\n## B\nmore');
    expect(d.sections.map((s) => s.text)).toEqual(['# A\n\ntext', '## B\nmore']);
  });

  it('D14: chunks of the handbook follow its sections and carry their heading paths', () => {
    const chunks = chunkDocument(md);
    const fuel = chunks.find((c) => c.text.includes('Paraffin'));
    expect(fuel?.headingPath).toEqual(['Lighthouse Handbook', 'Lamp', 'Fuel']);
    expect(fuel?.text.startsWith('### Fuel')).toBe(true);
    // The bare "# Lighthouse Handbook" section joined the Lamp section under it.
    expect(chunks.some((c) => c.text === '# Lighthouse Handbook')).toBe(false);
    expect(chunks.find((c) => c.text.startsWith('# Lighthouse Handbook'))?.headingPath).toEqual([
      'Lighthouse Handbook',
      'Lamp',
    ]);
  });
});
