import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors';
import { contentHash } from './content-hash';
import { documentFormat } from './document-format';
import { fixturePath } from './fixture-path';
import { openDocumentSource } from './open-document-source';
import { loadNodePdfjs } from './pdfjs-node';
import { readBlob } from './read-blob';

const fixture = (name: string, type = ''): File =>
  new File([readFileSync(fixturePath(name))], name, { type });
const options = { pdfjs: loadNodePdfjs };

describe('openDocumentSource', () => {
  it('D6: each fixture format is read, hashed and parsed by its format', async () => {
    const cases: [string, string, string][] = [
      ['notes.txt', 'text/plain', 'notes'],
      ['chinese.txt', 'text/plain', 'chinese'],
      ['handbook.md', 'text/markdown', 'Lighthouse Handbook'],
      ['hostile.html', 'text/html', 'Recipe: Lemon & Thyme Cake'],
      ['sample.pdf', 'application/pdf', 'Tidal Pools'],
    ];
    for (const [name, mimeType, title] of cases) {
      const source = openDocumentSource(fixture(name), name, options);
      expect(source.mimeType).toBe(mimeType);
      const read = await source.read(() => undefined);
      const sha = createHash('sha256')
        .update(readFileSync(fixturePath(name)))
        .digest('hex');
      expect(read.contentHash).toBe(sha);
      const parsed = await read.parse();
      expect(parsed.title).toBe(title);
      expect(parsed.sections.length).toBeGreaterThan(0);
    }
  });

  it('D6: an unsupported file is rejected up front with document_unsupported', () => {
    const error = (() => {
      try {
        openDocumentSource(
          new File(['x'], 'photo.jpg', { type: 'image/jpeg' }),
          'photo.jpg',
          options,
        );
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('document_unsupported');
  });

  it('D6: the format comes from the extension first, then the MIME type', () => {
    expect(documentFormat('README.MD', '')).toBe('markdown');
    expect(documentFormat('page', 'text/html; charset=utf-8')).toBe('html');
    expect(documentFormat('scan.pdf', 'application/octet-stream')).toBe('pdf');
    expect(documentFormat('archive.zip', 'application/zip')).toBeNull();
  });
});

describe('readBlob', () => {
  it('D7: reads a stream in chunks with rising progress, and UTF-8 split across chunks survives', async () => {
    const text = '茶'.repeat(100_000) + 'end';
    const bytes = new TextEncoder().encode(text);
    // Split the bytes at odd places so multi-byte characters straddle chunk boundaries.
    const parts = [bytes.slice(0, 1), bytes.slice(1, 70_001), bytes.slice(70_001)];
    const seen: number[] = [];
    const content = await readBlob(new Blob(parts), {
      decode: true,
      onProgress: (n) => seen.push(n),
    });
    expect(content.text).toBe(text);
    expect(seen[seen.length - 1]).toBe(bytes.byteLength);
    expect(seen.length).toBeGreaterThan(1);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
  });

  it('D40: text that is not UTF-8 is read as GB18030, UTF-16 or Windows-1252', async () => {
    const read = async (...parts: BlobPart[]) => readBlob(new Blob(parts), { decode: true });
    // "我的生日是五月" as a Windows tool saves Chinese (GBK), split mid-character across chunks.
    const gbk = [
      0xce, 0xd2, 0xb5, 0xc4, 0xc9, 0xfa, 0xc8, 0xd5, 0xca, 0xc7, 0xce, 0xe5, 0xd4, 0xc2,
    ];
    const chinese = await read(new Uint8Array(gbk.slice(0, 3)), new Uint8Array(gbk.slice(3)));
    expect(chinese).toMatchObject({ text: '我的生日是五月', encoding: 'gb18030' });
    // "Café au lait, naïve." in Latin-1: é before a space is no valid GB18030 pair.
    const latin = Uint8Array.from([...'Caf\xe9 au lait, na\xefve.'].map((c) => c.charCodeAt(0)));
    expect(await read(latin)).toMatchObject({
      text: 'Café au lait, naïve.',
      encoding: 'windows-1252',
    });
    // UTF-16 with its byte-order mark, little- and big-endian.
    const utf16 = (text: string, little: boolean) => {
      const out = new Uint8Array(2 + text.length * 2);
      out.set(little ? [0xff, 0xfe] : [0xfe, 0xff]);
      [...text].forEach((c, i) => {
        const code = c.charCodeAt(0);
        out[2 + i * 2 + (little ? 0 : 1)] = code & 0xff;
        out[2 + i * 2 + (little ? 1 : 0)] = code >> 8;
      });
      return out;
    };
    expect(await read(utf16('茶 tea', true))).toMatchObject({
      text: '茶 tea',
      encoding: 'utf-16le',
    });
    expect(await read(utf16('茶 tea', false))).toMatchObject({
      text: '茶 tea',
      encoding: 'utf-16be',
    });
    // Valid UTF-8 stays UTF-8, also when it ends inside a character (then it is not UTF-8).
    expect(await read('plain 茶')).toMatchObject({ text: 'plain 茶', encoding: 'utf-8' });
    const cut = new TextEncoder().encode('tea 茶').slice(0, -1);
    expect((await read(cut)).encoding).not.toBe('utf-8');
  });

  it('D1: a UTF-8 byte-order mark is dropped', async () => {
    const blob = new Blob([new Uint8Array([0xef, 0xbb, 0xbf]), 'hi']);
    expect((await readBlob(blob, { decode: true })).text).toBe('hi');
  });

  it('D7: an aborted read rejects with cancelled', async () => {
    const controller = new AbortController();
    const blob = new Blob([new Uint8Array(3_000_000)]);
    const error = await readBlob(blob, {
      decode: false,
      signal: controller.signal,
      onProgress: () => controller.abort(),
    }).catch((e: unknown) => e);
    expect((error as AppError).code).toBe('cancelled');
  });

  it('D8: the content hash is the SHA-256 of the bytes', async () => {
    const bytes = new TextEncoder().encode('abc');
    expect(await contentHash(bytes)).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });
});
