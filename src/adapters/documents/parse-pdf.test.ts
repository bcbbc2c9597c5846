import { readFileSync } from 'node:fs';
import type { TextItem } from 'pdfjs-dist/types/src/display/api';
import { describe, expect, it } from 'vitest';
import { chunkDocument } from '../../core/documents/chunk';
import { AppError } from '../../core/errors';
import { fixturePath } from './fixture-path';
import { pageText, parsePdf } from './parse-pdf';
import { loadNodePdfjs } from './pdfjs-node';

const bytes = new Uint8Array(readFileSync(fixturePath('sample.pdf')));

describe('parsePdf', () => {
  it('D5: the generated fixture is a valid PDF: every xref offset points at its object', () => {
    const text = Buffer.from(bytes).toString('latin1');
    const xrefAt = Number(/startxref\n(\d+)/.exec(text)?.[1]);
    expect(text.startsWith('xref', xrefAt)).toBe(true);
    const entries = [...text.slice(xrefAt).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) =>
      Number(m[1]),
    );
    expect(entries.length).toBe(10);
    entries.forEach((offset, k) => expect(text.startsWith(`${k + 1} 0 obj`, offset)).toBe(true));
  });

  it('D5: a multi-page PDF gives one section per page with its page number and the PDF title', async () => {
    const d = await parsePdf(bytes, 'sample.pdf', await loadNodePdfjs());
    expect(d.title).toBe('Tidal Pools');
    expect(d.mimeType).toBe('application/pdf');
    expect(d.sections.map((s) => s.page)).toEqual([1, 2, 3]);
    for (const s of d.sections) expect(d.text.slice(s.start, s.end)).toBe(s.text);
    expect(d.sections[0]?.text).toBe(
      'Field Notes on Tidal Pools\nTidal pools form where rock basins hold seawater at low tide.\n\nAnemones and hermit crabs live in the upper pools.',
    );
    expect(d.sections[2]?.text).toContain('forty-two starfish in June.');
  });

  it('D5: chunks of a PDF carry their page and never span two pages', async () => {
    const d = await parsePdf(bytes, 'sample.pdf', await loadNodePdfjs());
    const chunks = chunkDocument(d);
    expect(chunks.map((c) => c.page)).toEqual([1, 2, 3]);
    expect(chunks.find((c) => c.text.includes('starfish'))?.page).toBe(3);
  });

  it('D5: the caller keeps its bytes (pdf.js gets a copy)', async () => {
    const mine = bytes.slice();
    await parsePdf(mine, 'sample.pdf', await loadNodePdfjs());
    expect(mine.byteLength).toBe(bytes.byteLength);
  });

  it('D5: text items join into words, lines and paragraphs by their positions', () => {
    const item = (str: string, x: number, y: number, width: number, hasEOL = false): TextItem => ({
      str,
      dir: 'ltr',
      transform: [12, 0, 0, 12, x, y],
      width,
      height: 12,
      fontName: 'F1',
      hasEOL,
    });
    const text = pageText([
      item('Hello', 72, 700, 30),
      item('world', 110, 700, 30), // a gap on the same line: a space
      item('again', 72, 686, 30), // the next line, close below: a line break
      item('far', 72, 640, 18), // a big vertical gap: a paragraph break
      item('-', 90, 640, 4),
      item('joined', 94, 640, 30), // touching items: no space
    ]);
    expect(text).toBe('Hello world\nagain\n\nfar-joined');
  });

  it('D5: a damaged PDF is document_parse_failed', async () => {
    const broken = new TextEncoder().encode('%PDF-1.4\nthis is not really a pdf');
    const error = await parsePdf(broken, 'bad.pdf', await loadNodePdfjs()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('document_parse_failed');
  });

  it('D5: a PDF without a text layer (scanned) is document_parse_failed', async () => {
    const pdf = [
      '%PDF-1.4',
      '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
      '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
      '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >> endobj',
      'trailer << /Root 1 0 R >>',
      '%%EOF',
    ].join('\n');
    const error = await parsePdf(
      new TextEncoder().encode(pdf),
      'scan.pdf',
      await loadNodePdfjs(),
    ).catch((e: unknown) => e);
    expect((error as AppError).code).toBe('document_parse_failed');
    expect((error as AppError).message).toContain('no text layer');
  });

  it('D5: a cancelled parse rejects with cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await parsePdf(bytes, 's.pdf', await loadNodePdfjs(), controller.signal).catch(
      (e: unknown) => e,
    );
    expect((error as AppError).code).toBe('cancelled');
  });
});
