import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../tokens/estimate-tokenizer';
import { chunkDocument, DEFAULT_CHUNK_OPTIONS, iterateChunks, type DocumentChunk } from './chunk';
import type { DocumentSection, ParsedDocument } from './parsed-document';

/** A document whose sections are the given parts, joined by blank lines. */
function doc(parts: { heading?: string[]; page?: number; text: string }[]): ParsedDocument {
  let text = '';
  const sections: DocumentSection[] = [];
  for (const part of parts) {
    if (text !== '') text += '\n\n';
    const start = text.length;
    text += part.text;
    const section: DocumentSection = {
      headingPath: part.heading ?? [],
      text: part.text,
      start,
      end: text.length,
    };
    const last = part.heading?.[part.heading.length - 1];
    if (last !== undefined) section.heading = last;
    if (part.page !== undefined) section.page = part.page;
    sections.push(section);
  }
  return { title: 'T', mimeType: 'text/plain', text, sections };
}

const english = (n: number, topic: string): string =>
  Array.from(
    { length: n },
    (_, i) => `Sentence number ${i} talks about ${topic} in a calm and thorough way.`,
  ).join(' ');

const chinese = (n: number): string =>
  Array.from({ length: n }, (_, i) => `第${i}句话讲的是我们在山上看到的风景和天气！`).join('');

function expectExact(d: ParsedDocument, chunks: DocumentChunk[]): void {
  for (const c of chunks) {
    expect(d.text.slice(c.start, c.end)).toBe(c.text);
    expect(c.text).toBe(c.text.trim());
  }
}

/** Index of the section containing `[start, end)`, or -1 when the range crosses sections. */
function sectionOf(d: ParsedDocument, c: DocumentChunk): number {
  return d.sections.findIndex((s) => c.start >= s.start && c.end <= s.end);
}

describe('chunkDocument', () => {
  it('D10: every chunk is the exact slice text.slice(start, end) (English)', () => {
    const d = doc([{ text: `${english(12, 'rivers')}\n\n${english(20, 'mountains')}` }]);
    const chunks = chunkDocument(d);
    expect(chunks.length).toBeGreaterThan(2);
    expectExact(d, chunks);
    expect(chunks.map((c) => c.index)).toEqual(chunks.map((_, k) => k));
  });

  it('D10: every chunk is the exact slice text.slice(start, end) (Chinese)', () => {
    const d = doc([{ text: `${chinese(20)}\n\n${chinese(25)}` }]);
    const chunks = chunkDocument(d);
    expect(chunks.length).toBeGreaterThan(2);
    expectExact(d, chunks);
  });

  it('D11: English chunks end at a sentence end and start at a sentence start', () => {
    const d = doc([{ text: english(40, 'bees') }]);
    const chunks = chunkDocument(d);
    for (const c of chunks) {
      expect(c.text.endsWith('.')).toBe(true);
      expect(c.text).toMatch(/^Sentence number \d+/);
    }
  });

  it('D11: Chinese chunks are cut after 。！？ only', () => {
    const d = doc([{ text: chinese(60) }]);
    const chunks = chunkDocument(d);
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) {
      expect(c.text.endsWith('！')).toBe(true);
      expect(c.text.startsWith('第')).toBe(true);
    }
  });

  it('D12: no chunk exceeds maxTokens as the estimator counts it; EN ~700 chars, ZH ~155', () => {
    const d = doc([{ text: english(50, 'ships') }, { text: chinese(50) }]);
    const chunks = chunkDocument(d);
    for (const c of chunks) {
      expect(estimateTokens(c.text)).toBeLessThanOrEqual(DEFAULT_CHUNK_OPTIONS.maxTokens);
      expect(c.tokens).toBe(estimateTokens(c.text));
    }
    const en = chunks.filter((c) => sectionOf(d, c) === 0);
    const zh = chunks.filter((c) => sectionOf(d, c) === 1);
    const longest = (cs: DocumentChunk[]) => Math.max(...cs.map((c) => c.text.length));
    expect(longest(en)).toBeGreaterThan(550);
    expect(longest(en)).toBeLessThanOrEqual(700);
    expect(longest(zh)).toBeGreaterThan(120);
    expect(longest(zh)).toBeLessThanOrEqual(160);
  });

  it('D13: chunks cut inside a paragraph overlap by at most overlapTokens of whole sentences', () => {
    const d = doc([{ text: english(40, 'owls') }]);
    const chunks = chunkDocument(d);
    for (let k = 1; k < chunks.length; k += 1) {
      const prev = chunks[k - 1] as DocumentChunk;
      const cur = chunks[k] as DocumentChunk;
      expect(cur.start).toBeLessThan(prev.end);
      expect(cur.start).toBeGreaterThan(prev.start);
      const shared = d.text.slice(cur.start, prev.end);
      expect(estimateTokens(shared)).toBeLessThanOrEqual(DEFAULT_CHUNK_OPTIONS.overlapTokens);
      expect(shared).toMatch(/^Sentence number \d+.*\.$/);
    }
  });

  it("D13: inside one over-long sentence the overlap is the previous chunk's last words", () => {
    const words = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ');
    const d = doc([{ text: words }]);
    const chunks = chunkDocument(d);
    expect(chunks.length).toBeGreaterThan(3);
    for (let k = 1; k < chunks.length; k += 1) {
      const prev = chunks[k - 1] as DocumentChunk;
      const cur = chunks[k] as DocumentChunk;
      const shared = d.text.slice(cur.start, prev.end);
      expect(shared).toMatch(/^word\d+( word\d+)*$/);
      expect(estimateTokens(shared)).toBeLessThanOrEqual(DEFAULT_CHUNK_OPTIONS.overlapTokens);
    }
  });

  it('D14: a chunk never crosses a heading or page section, and records its page and heading path', () => {
    const d = doc([
      { heading: ['Guide', 'Install'], text: `## Install\n\n${english(3, 'setup')}` },
      { heading: ['Guide', 'Use'], text: `## Use\n\n${english(30, 'usage')}` },
      { page: 2, text: english(2, 'page two') },
    ]);
    const chunks = chunkDocument(d);
    for (const c of chunks) expect(sectionOf(d, c)).toBeGreaterThanOrEqual(0);
    expect(chunks[0]?.headingPath).toEqual(['Guide', 'Install']);
    expect(chunks[0]?.text.startsWith('## Install')).toBe(true);
    expect(chunks[1]?.headingPath).toEqual(['Guide', 'Use']);
    const last = chunks[chunks.length - 1];
    expect(last?.page).toBe(2);
    expect(last?.headingPath).toEqual([]);
    expect(chunks.filter((c) => c.page === undefined).length).toBe(chunks.length - 1);
  });

  it('D14: a section that is only a heading joins the section nested under it', () => {
    const d = doc([
      { heading: ['Guide'], text: '# Guide' },
      { heading: ['Guide', 'Install'], text: '## Install\n\nRun the installer.' },
    ]);
    const chunks = chunkDocument(d);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.text).toBe('# Guide\n\n## Install\n\nRun the installer.');
    expect(chunks[0]?.headingPath).toEqual(['Guide', 'Install']);
  });

  it('D15: cuts prefer paragraph breaks over mid-paragraph sentence breaks', () => {
    // Two paragraphs that each fit a chunk but not together: the cut is at the blank line.
    const a = english(7, 'apples');
    const b = english(7, 'pears');
    const d = doc([{ text: `${a}\n\n${b}` }]);
    const chunks = chunkDocument(d);
    expect(chunks.map((c) => c.text)).toEqual([a, b]);
  });

  it('D16: a sentence longer than a chunk is cut between words, never inside one (EN and ZH)', () => {
    const words = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ');
    const zh = '我们今天一起去公园散步然后去图书馆看书'.repeat(30) + '。';
    const d = doc([{ text: words }, { text: zh }]);
    const chunks = chunkDocument(d);
    expect(chunks.length).toBeGreaterThan(4);
    expectExact(d, chunks);
    for (const c of chunks.filter((x) => sectionOf(d, x) === 0)) {
      expect(c.text).toMatch(/^word\d+( word\d+)*$/);
      expect(/\w/.test(d.text.charAt(c.start - 1))).toBe(false);
      expect(/\w/.test(d.text.charAt(c.end))).toBe(false);
    }
    const seg = new Intl.Segmenter('zh', { granularity: 'word' });
    const boundaries = new Set(
      [...seg.segment(zh)].map((s) => s.index + (d.sections[1]?.start ?? 0)),
    );
    for (const c of chunks.filter((x) => sectionOf(d, x) === 1)) {
      expect(boundaries.has(c.start)).toBe(true);
      expect(boundaries.has(c.end) || c.end === d.text.length).toBe(true);
    }
  });

  it('D16: one "word" longer than a chunk is cut between code points, never inside a pair', () => {
    const blob = '😀'.repeat(900);
    const d = doc([{ text: blob }]);
    const chunks = chunkDocument(d);
    expect(chunks.length).toBeGreaterThan(1);
    expectExact(d, chunks);
    for (const c of chunks) expect(c.text).toMatch(/^(?:😀)+$/u);
  });

  it('D17: a section far longer than one working window is chunked exactly and completely', () => {
    const big = Array.from({ length: 400 }, (_, k) => english(3, `topic ${k}`)).join('\n\n');
    const d = doc([{ text: big }]);
    const chunks = chunkDocument(d);
    expectExact(d, chunks);
    const covered = chunks.reduce((n, c) => n + c.text.replace(/\s/g, '').length, 0);
    expect(covered).toBeGreaterThanOrEqual(big.replace(/\s/g, '').length);
    for (let k = 1; k < chunks.length; k += 1) {
      expect(chunks[k]?.start).toBeGreaterThanOrEqual(chunks[k - 1]?.end ?? 0);
    }
  });

  it('D10: seeded fuzz — offsets exact, sections respected, bound held, all text covered', () => {
    let seed = 20261201;
    const rand = (): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pieces = [
      'Hello there.',
      'What now?',
      '天气很好。',
      '你去吗？',
      'word',
      ' ',
      '\n',
      '\n\n',
      'x'.repeat(40),
      '“Yes!” she said.',
    ];
    for (let round = 0; round < 60; round += 1) {
      const parts = Array.from({ length: 1 + Math.floor(rand() * 4) }, (_, s) => ({
        heading: [`H${s}`],
        text:
          Array.from(
            { length: Math.floor(rand() * 300) },
            () => pieces[Math.floor(rand() * pieces.length)],
          ).join('') + 'End.',
      }));
      const d = doc(parts);
      const maxTokens = 40 + Math.floor(rand() * 200);
      const chunks = chunkDocument(d, { maxTokens, overlapTokens: Math.floor(maxTokens * 0.15) });
      expectExact(d, chunks);
      const covered = new Array<boolean>(d.text.length).fill(false);
      for (const c of chunks) {
        expect(sectionOf(d, c)).toBeGreaterThanOrEqual(0);
        expect(estimateTokens(c.text)).toBeLessThanOrEqual(maxTokens);
        for (let k = c.start; k < c.end; k += 1) covered[k] = true;
      }
      const uncovered = [...d.text].filter((ch, k) => !/\s/.test(ch) && covered[k] !== true);
      expect(uncovered).toEqual([]);
    }
  });

  it('X168 (item 3): a 1 MB one-line text, with or without spaces, chunks in linear time and in small steps', () => {
    const cases = {
      spaces: 'harbour '.repeat(125_000),
      none: 'x'.repeat(1_000_000),
      marks: `a${'\u0301'.repeat(200_000)}`,
    };
    for (const [name, text] of Object.entries(cases)) {
      const doc: ParsedDocument = {
        title: name,
        mimeType: 'text/plain',
        text,
        sections: [{ headingPath: [], text, start: 0, end: text.length }],
      };
      const started = performance.now();
      let last = started;
      let longestStep = 0;
      let covered = 0;
      for (const chunk of iterateChunks(doc)) {
        const now = performance.now();
        longestStep = Math.max(longestStep, now - last);
        last = now;
        expect(chunk.text).toBe(text.slice(chunk.start, chunk.end));
        expect(chunk.tokens).toBeLessThanOrEqual(DEFAULT_CHUNK_OPTIONS.maxTokens);
        covered = Math.max(covered, chunk.end);
      }
      expect({ name, covered }).toEqual({ name, covered: text.trimEnd().length });
      // Today's code spent minutes in one step (Intl.Segmenter over the whole line, and a
      // measure per character); the bounds leave room for a loaded CI machine.
      expect(performance.now() - started, name).toBeLessThan(20_000);
      expect(longestStep, name).toBeLessThan(2_000);
    }
  }, 60_000);
  it('X177 (item 3): a space-less run is not measured over and over: under 10 characters measured per character', () => {
    // 1 MB of one "word": before, each piece of it was found by doubling and bisecting from one
    // character, and every 2 K window was joined to the next and measured (~20 per character).
    const text = 'harbour'.repeat(150_000);
    const doc: ParsedDocument = {
      title: 'blob',
      mimeType: 'text/plain',
      text,
      sections: [{ headingPath: [], text, start: 0, end: text.length }],
    };
    let measured = 0;
    const measure = (s: string) => {
      measured += s.length;
      return estimateTokens(s);
    };
    const counted = chunkDocument(doc, { measure });
    expect(counted.map((c) => [c.start, c.end])).toEqual(
      chunkDocument(doc).map((c) => [c.start, c.end]),
    );
    expect(counted.every((c) => c.tokens <= DEFAULT_CHUNK_OPTIONS.maxTokens)).toBe(true);
    expect(counted.at(-1)?.end).toBe(text.length);
    expect(measured / text.length).toBeLessThan(10);
  });
});
