import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chunkDocument } from '../../core/documents/chunk';
import { fixturePath } from './fixture-path';
import { parseText } from './parse-text';

describe('parseText', () => {
  it('D1: a text file is one section with its file name as title; CRLF becomes LF', () => {
    const d = parseText('  Line one\r\nLine two\r\n\r\n', 'notes/garden.txt');
    expect(d.title).toBe('garden');
    expect(d.mimeType).toBe('text/plain');
    expect(d.text).toBe('  Line one\nLine two\n\n');
    expect(d.sections).toEqual([
      { headingPath: [], text: 'Line one\nLine two', start: 2, end: 19 },
    ]);
    expect(parseText(' \n ', 'empty.txt').sections).toEqual([]);
  });

  it('D1: the English fixture chunks at paragraph breaks into exact slices', () => {
    const d = parseText(readFileSync(fixturePath('notes.txt'), 'utf8'), 'notes.txt');
    const chunks = chunkDocument(d);
    expect(chunks.length).toBeGreaterThanOrEqual(1);
    for (const c of chunks) expect(d.text.slice(c.start, c.end)).toBe(c.text);
    expect(chunks.some((c) => c.text.includes('Pepper'))).toBe(true);
  });

  it('D11: the Chinese fixture chunks at 。！？ with exact offsets', () => {
    const d = parseText(readFileSync(fixturePath('chinese.txt'), 'utf8'), 'chinese.txt');
    const chunks = chunkDocument(d, { maxTokens: 64, overlapTokens: 10 });
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) {
      expect(d.text.slice(c.start, c.end)).toBe(c.text);
      expect(c.text).toMatch(/[。！？]$|^茶的历史/);
    }
    expect(chunks.some((c) => c.text.includes('陆羽'))).toBe(true);
  });
});
