import { loadBrowserPdfjs } from '../adapters/documents/pdfjs-browser';
import {
  DocumentWorkerClient,
  documentWorkerConnection,
  openWorkerDocumentSource,
} from '../adapters/documents/worker-document-source';
import type { Embedder } from '../core/ports/embedder';
import { RpcClient } from '../rpc/rpc-client';
import { DocumentsState, type DocumentsDeps } from '../ui/state/documents.svelte';

/** What the app's document imports need beyond how files are opened. */
export type AppDocumentsDeps = Omit<DocumentsDeps, 'embedder' | 'open' | 'yieldToHost'> & {
  /** The embedder in use when a file is imported: the model chosen now, not at start-up. */
  embedder: () => Embedder | null;
};

/**
 * Document imports (the Documents screen). Text, Markdown and HTML are read, parsed and chunked
 * in the document worker (X177); where it cannot start, on the page, and the screen says so
 * (X178). The rest of an import runs on the page, yielding between slices (ADR 0055).
 */
export function startDocuments(deps: AppDocumentsDeps): DocumentsState {
  const { embedder, ...rest } = deps;
  const worker = new DocumentWorkerClient(new RpcClient(documentWorkerConnection()), {
    onUnavailable: (reason) => {
      console.warn('the document worker could not start; imports are read on the page', reason);
      documents.noteReadingOnPage();
    },
  });
  const documents: DocumentsState = new DocumentsState({
    ...rest,
    get embedder() {
      return embedder();
    },
    open: (file) =>
      openWorkerDocumentSource(file.blob, file.name, {
        pdfjs: loadBrowserPdfjs,
        worker,
        ...(file.asText ? { format: 'text' as const } : {}),
      }),
    yieldToHost: () => new Promise((r) => setTimeout(r, 0)),
  });
  return documents;
}
