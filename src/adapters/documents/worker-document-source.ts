import type {
  ChunkSizes,
  ChunkedDocument,
  DocumentSource,
  ParseProgress,
  ReadDocument,
} from '../../core/documents/document-source';
import { AppError } from '../../core/errors';
import type { DocumentApi, WorkerDocumentFormat } from '../../rpc/document-api';
import type { RpcClient, RpcConnection } from '../../rpc/rpc-client';
import { OptionalWorkerClient, type OptionalWorkerOptions } from '../../rpc/optional-worker';
import { workerConnection } from '../../rpc/worker-connection';
import { documentFormat } from './document-format';
import { openDocumentSource, type OpenDocumentOptions } from './open-document-source';

/** How long the worker may take to answer its first call before imports stay on the page. */
export const WORKER_START_MS = 20_000;

/**
 * The page's side of the document worker (X177). The first import checks that the worker
 * starts (`hello`); when it cannot — no `Worker`, a script the browser refuses, no answer in
 * {@link WORKER_START_MS} — `onUnavailable` is told once and every import is read on the page
 * (the old path, X178). A worker that crashes later fails that import with `worker_crashed`; the
 * next one starts a fresh worker.
 */
export class DocumentWorkerClient extends OptionalWorkerClient<DocumentApi> {
  constructor(rpc: RpcClient<DocumentApi>, options: OptionalWorkerOptions = {}) {
    super(rpc, 'document worker', WORKER_START_MS, options);
  }
}

/** The document worker as an RPC connection factory (a new worker on every restart). */
export function documentWorkerConnection(): () => RpcConnection {
  return workerConnection(
    () =>
      new Worker(new URL('../../workers/document.worker.ts', import.meta.url), { type: 'module' }),
  );
}

/**
 * A {@link DocumentSource} whose text, Markdown and HTML are read, hashed, parsed and chunked in
 * the document worker (X177); PDF keeps the page path (pdf.js parses in its own worker), and so
 * does everything when the worker cannot start. Throws `document_unsupported` right away for a
 * file type Loci cannot import, as {@link openDocumentSource} does.
 */
export function openWorkerDocumentSource(
  file: Blob,
  name: string,
  options: OpenDocumentOptions & { worker: DocumentWorkerClient },
): DocumentSource {
  const onPage = openDocumentSource(file, name, options);
  const format = options.format ?? documentFormat(name, file.type);
  if (format === null || format === 'pdf') return onPage;
  const { worker } = options;
  return {
    name: onPage.name,
    mimeType: onPage.mimeType,
    bytes: onPage.bytes,
    async read(onProgress, signal): Promise<ReadDocument> {
      if (!(await worker.available())) return onPage.read(onProgress, signal);
      const { contentHash } = await worker.rpc.call(
        'hash',
        { file },
        { ...(signal ? { signal } : {}), onEvent: (e) => onProgress(e.loadedBytes) },
      );
      return {
        contentHash,
        // The whole text on the page, for a caller that asks for it (the import does not).
        parse: async (parseSignal) => (await onPage.read(() => {}, parseSignal)).parse(parseSignal),
        parseChunked: (sizes, onParse, parseSignal) =>
          parseInWorker(worker, { file, name, format, sizes }, onParse, parseSignal),
      };
    },
  };
}

async function parseInWorker(
  worker: DocumentWorkerClient,
  args: { file: Blob; name: string; format: WorkerDocumentFormat; sizes: ChunkSizes },
  onParse: (progress: ParseProgress) => void,
  signal: AbortSignal | undefined,
): Promise<ChunkedDocument> {
  const { rpc } = worker;
  const done = await rpc.call('parse', args, {
    ...(signal ? { signal } : {}),
    onEvent: (event) => onParse({ doneChars: event.doneChars, totalChars: event.totalChars }),
  });
  const { handle } = done;
  return {
    title: done.title,
    mimeType: done.mimeType,
    count: done.chunks,
    slice: async (from, to) => {
      const chunks = await rpc.call('slice', { handle, from, to });
      if (chunks.length !== Math.min(to, done.chunks) - from) {
        throw new AppError(
          'internal',
          `The document worker sent ${chunks.length} passages for ${from}–${to}.`,
        );
      }
      return chunks;
    },
    // A worker that crashed meanwhile holds nothing: the failed release is of no concern.
    release: () => void rpc.call('release', { handle }).catch(() => undefined),
  };
}
