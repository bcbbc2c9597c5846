import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contentHash } from '../adapters/documents/content-hash';
import { fixturePath } from '../adapters/documents/fixture-path';
import { openDocumentSource } from '../adapters/documents/open-document-source';
import { loadNodePdfjs } from '../adapters/documents/pdfjs-node';
import {
  DocumentWorkerClient,
  openWorkerDocumentSource,
} from '../adapters/documents/worker-document-source';
import { chunkDocument, DEFAULT_CHUNK_OPTIONS } from '../core/documents/chunk';
import type { ChunkSizes } from '../core/documents/document-source';
import { AppError } from '../core/errors';
import type { DocumentApi, ParsingEvent, ReadEvent } from '../rpc/document-api';
import type { CallContext, RpcEndpoint } from '../rpc/protocol';
import { RpcClient, type RpcConnection } from '../rpc/rpc-client';
import { serveRpc } from '../rpc/serve-rpc';
import { createDocumentHandlers, type DocumentWorkerOptions } from './document-handlers';

const { measure: _measure, ...SIZES } = DEFAULT_CHUNK_OPTIONS;
const sizes: ChunkSizes = SIZES;

/** The worker on one end of a MessageChannel, the page's client on the other. */
function overChannel(
  options: DocumentWorkerOptions = {},
  handlers = createDocumentHandlers(options),
) {
  const connect = (): RpcConnection => {
    const channel = new MessageChannel();
    const stop = serveRpc(channel.port2 as unknown as RpcEndpoint, handlers);
    return {
      endpoint: channel.port1 as unknown as RpcEndpoint,
      onCrash: () => {},
      terminate: () => {
        stop();
        channel.port1.close();
        channel.port2.close();
      },
    };
  };
  return new RpcClient<DocumentApi>(connect);
}

/** A worker whose script never runs: its first message is answered by a crash. */
function deadWorker(): RpcClient<DocumentApi> {
  return new RpcClient<DocumentApi>(() => {
    let crash: (reason: string) => void = () => {};
    return {
      endpoint: {
        postMessage: () => queueMicrotask(() => crash('the script was refused')),
        addEventListener: () => {},
        removeEventListener: () => {},
      },
      onCrash: (listener) => {
        crash = listener;
      },
      terminate: () => {},
    };
  });
}

const context = <E>(signal = new AbortController().signal, events: E[] = []): CallContext<E> => ({
  signal,
  emit: (e) => events.push(e),
});

const rejection = async (promise: Promise<unknown>): Promise<AppError> => {
  try {
    await promise;
  } catch (error) {
    return AppError.from(error);
  }
  throw new Error('expected a rejection');
};

const handbook = (): File =>
  new File([readFileSync(fixturePath('handbook.md'))], 'handbook.md', { type: 'text/markdown' });

describe('document worker protocol (X177)', () => {
  it('hash: reading events count up to the size, and the hash is the bytes’ SHA-256', async () => {
    const rpc = overChannel();
    const file = new File(['harbour '.repeat(50_000)], 'one-line.txt');
    const events: ReadEvent[] = [];
    const { contentHash: hash } = await rpc.call(
      'hash',
      { file },
      { onEvent: (e) => events.push(e) },
    );
    expect(hash).toBe(await contentHash(new Uint8Array(await file.arrayBuffer())));
    expect(events.every((e) => e.type === 'reading')).toBe(true);
    const loaded = events.map((e) => e.loadedBytes);
    expect([...loaded].sort((a, b) => a - b)).toEqual(loaded);
    expect(loaded.at(-1)).toBe(file.size);
    // About a hundred progress events at most, whatever the size (each is a task on the page).
    expect(events.length).toBeLessThanOrEqual(101);
    rpc.terminate();
  });

  it('parse: progress grows to the whole text; the held chunks equal the page’s chunking and a release frees them', async () => {
    const handlers = createDocumentHandlers({ progressMs: 0 });
    const rpc = overChannel({}, handlers);
    const file = handbook();
    const events: ParsingEvent[] = [];
    const done = await rpc.call(
      'parse',
      { file, name: file.name, format: 'markdown', sizes: { ...sizes, maxTokens: 64 } },
      { onEvent: (e) => events.push(e) },
    );
    const page = await (
      await openDocumentSource(file, file.name, { pdfjs: loadNodePdfjs }).read(() => {})
    ).parse();
    const expected = chunkDocument(page, { maxTokens: 64 });
    expect(expected.length).toBeGreaterThan(4);
    expect(done).toEqual({
      handle: expect.any(Number),
      title: 'Lighthouse Handbook',
      mimeType: 'text/markdown',
      chunks: expected.length,
    });
    expect(events.length).toBeGreaterThan(2);
    expect(events.every((e) => e.type === 'parsing' && e.totalChars === page.text.length)).toBe(
      true,
    );
    const progress = events.map((e) => e.doneChars);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
    expect(progress.at(-1)).toBe(page.text.length);
    const first = await rpc.call('slice', { handle: done.handle, from: 0, to: 3 });
    const rest = await rpc.call('slice', { handle: done.handle, from: 3, to: done.chunks });
    expect([...first, ...rest]).toEqual(expected);
    expect(handlers.heldCount()).toBe(1);
    await rpc.call('release', { handle: done.handle });
    expect(handlers.heldCount()).toBe(0);
    const gone = await rejection(rpc.call('slice', { handle: done.handle, from: 0, to: 1 }));
    expect(gone.code).toBe('not_found');
    rpc.terminate();
  });

  it('parse: HTML is turned into text by the own tokenizer, no DOM needed', async () => {
    const rpc = overChannel();
    const html = `<title>Tide &amp; time</title><p>start</p>${'<div><span>cell '.repeat(2_000)}<p>end</p>`;
    const file = new File([html], 'unclosed.html', { type: 'text/html' });
    const done = await rpc.call('parse', { file, name: file.name, format: 'html', sizes });
    const chunks = await rpc.call('slice', { handle: done.handle, from: 0, to: done.chunks });
    expect(done.title).toBe('Tide & time');
    expect(chunks[0]?.text.startsWith('start')).toBe(true);
    expect(chunks.at(-1)?.text.endsWith('end')).toBe(true);
    expect(
      chunks
        .map((c) => c.text)
        .join(' ')
        .match(/cell/g)?.length,
    ).toBe(2_000);
    rpc.terminate();
  });

  it('a file with no text, an unreadable file and a malformed request fail with a clear error', async () => {
    const rpc = overChannel();
    const blank = new File([' \n\n\t  '], 'blank.txt');
    const empty = await rejection(
      rpc.call('parse', { file: blank, name: 'blank.txt', format: 'text', sizes }),
    );
    expect(empty.code).toBe('document_parse_failed');
    expect(empty.message).toBe('“blank” contains no text to import.');

    class Unreadable extends Blob {
      override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
        return new ReadableStream({
          pull: (c) => c.error(new DOMException('The file is gone.', 'NotReadableError')),
        });
      }
    }
    const handlers = createDocumentHandlers();
    const gone = await rejection(
      handlers.parse(
        { file: new Unreadable(['x']), name: 'gone.txt', format: 'text', sizes },
        context(),
      ),
    );
    expect(gone.code).toBe('document_parse_failed');
    expect(gone.message).toBe('“gone.txt” could not be read: The file is gone.');

    const pdf = await rejection(
      rpc.call('parse', {
        file: blank,
        name: 'x.pdf',
        format: 'pdf' as unknown as 'text',
        sizes,
      }),
    );
    expect(pdf.code).toBe('invalid_argument');
    const noFile = await rejection(rpc.call('hash', { file: 'not a file' as unknown as Blob }));
    expect(noFile).toMatchObject({
      code: 'invalid_argument',
      message: 'The document worker was sent no file.',
    });
    const badSize = await rejection(
      rpc.call('parse', {
        file: blank,
        name: 'b.txt',
        format: 'text',
        sizes: { ...sizes, maxTokens: Number.NaN },
      }),
    );
    expect(badSize.code).toBe('invalid_argument');
    rpc.terminate();
  });

  it('cancel: the call rejects with cancelled, the worker stops chunking and keeps nothing', async () => {
    // A yield and a progress event after every chunk, so the cancel gets in at once.
    const handlers = createDocumentHandlers({ progressMs: 0, sliceMs: 0 });
    const controller = new AbortController();
    const events: ParsingEvent[] = [];
    const file = new File(['All the words of a long letter. '.repeat(20_000)], 'letter.txt');
    const ctx: CallContext<ParsingEvent> = {
      signal: controller.signal,
      emit: (e) => {
        events.push(e);
        if (events.length === 3) controller.abort();
      },
    };
    const error = await rejection(
      handlers.parse({ file, name: file.name, format: 'text', sizes }, ctx),
    );
    expect(error.code).toBe('cancelled');
    expect(events.length).toBeLessThanOrEqual(4);
    expect(events.at(-1)!.doneChars).toBeLessThan(file.size / 10);
    expect(handlers.heldCount()).toBe(0);

    // Over the channel: the caller's signal rejects the call with `cancelled`.
    const rpc = overChannel({ progressMs: 0, sliceMs: 0 });
    const outer = new AbortController();
    let seen = 0;
    const cancelled = await rejection(
      rpc.call(
        'parse',
        { file, name: file.name, format: 'text', sizes },
        {
          signal: outer.signal,
          onEvent: () => {
            seen += 1;
            if (seen === 2) outer.abort();
          },
        },
      ),
    );
    expect(cancelled.code).toBe('cancelled');
    expect(seen).toBeLessThan(100);
    rpc.terminate();
  });
});

describe('the page’s document source over the worker (X177, X178)', () => {
  it('reads, hashes and chunks in the worker: the same hash and passages as the page path', async () => {
    const worker = new DocumentWorkerClient(overChannel());
    const file = handbook();
    const viaWorker = openWorkerDocumentSource(file, file.name, { pdfjs: loadNodePdfjs, worker });
    const onPage = openDocumentSource(file, file.name, { pdfjs: loadNodePdfjs });
    const bytes: number[] = [];
    const read = await viaWorker.read((n) => bytes.push(n));
    const pageRead = await onPage.read(() => {});
    expect(read.contentHash).toBe(pageRead.contentHash);
    expect(bytes.at(-1)).toBe(file.size);
    expect(read.parseChunked).toBeDefined();
    const progress: number[] = [];
    const chunked = await read.parseChunked!(sizes, (p) =>
      progress.push(p.doneChars / p.totalChars),
    );
    const parsed = await pageRead.parse();
    const expected = chunkDocument(parsed);
    expect(chunked).toMatchObject({
      title: parsed.title,
      mimeType: parsed.mimeType,
      count: expected.length,
    });
    expect(await chunked.slice(0, chunked.count)).toEqual(expected);
    expect(progress.at(-1)).toBe(1);
    chunked.release();
    worker.rpc.terminate();
  });

  it('X178: a worker that cannot start is reported once and imports are read on the page', async () => {
    const reasons: string[] = [];
    const worker = new DocumentWorkerClient(deadWorker(), {
      onUnavailable: (reason) => reasons.push(reason),
    });
    const file = handbook();
    const source = openWorkerDocumentSource(file, file.name, { pdfjs: loadNodePdfjs, worker });
    const read = await source.read(() => {});
    expect(read.parseChunked).toBeUndefined();
    expect((await read.parse()).title).toBe('Lighthouse Handbook');
    await source.read(() => {});
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toContain('the script was refused');
  });

  it('X178: a worker that never answers counts as not started after the start timeout', async () => {
    const silent = new RpcClient<DocumentApi>(() => ({
      endpoint: {
        postMessage: () => {},
        addEventListener: () => {},
        removeEventListener: () => {},
      },
      onCrash: () => {},
      terminate: () => {},
    }));
    const reasons: string[] = [];
    const worker = new DocumentWorkerClient(silent, {
      startMs: 20,
      onUnavailable: (r) => reasons.push(r),
    });
    expect(await worker.available()).toBe(false);
    expect(reasons).toEqual(['The document worker did not answer.']);
  });

  it('PDF keeps the page path (pdf.js parses in its own worker)', async () => {
    const worker = new DocumentWorkerClient(deadWorker());
    const file = new File([readFileSync(fixturePath('sample.pdf'))], 'sample.pdf');
    const source = openWorkerDocumentSource(file, file.name, { pdfjs: loadNodePdfjs, worker });
    const read = await source.read(() => {});
    expect(read.parseChunked).toBeUndefined();
  });
});
