/**
 * The document worker's handler map (`src/workers/document.worker.ts`, rule X177): a text,
 * Markdown or HTML file is read, hashed, parsed and chunked there, so a huge file never blocks
 * the page. The file crosses as a `Blob` (structured clone passes a reference, not the bytes);
 * chunks come back in slices as events, never the whole text.
 */
import type { DocumentChunk } from '../core/documents/chunk';
import type { ChunkSizes } from '../core/documents/document-source';
import type { CallContext } from './protocol';

/** The formats the worker parses (PDF stays with pdf.js and its own worker). */
export type WorkerDocumentFormat = 'text' | 'markdown' | 'html';

/** What `hash` emits: bytes read so far. */
export interface ReadEvent {
  type: 'reading';
  loadedBytes: number;
}

/** What `parse` emits: the next chunks in order, and how far the chunker is. */
export interface ChunksEvent {
  type: 'chunks';
  chunks: DocumentChunk[];
  doneChars: number;
  totalChars: number;
}

export type DocumentApi = {
  /** Answers once the worker's script runs: the page's check that a worker can start at all. */
  hello(args: null): Promise<'ready'>;
  /** Reads every byte (emitting progress) and returns its lower-case hex SHA-256. */
  hash(args: { file: Blob }, ctx: CallContext<ReadEvent>): Promise<{ contentHash: string }>;
  /**
   * Reads and parses the file, then chunks it, emitting the chunks in slices. Resolves with the
   * title, MIME type and the number of chunks sent. Rejects with `document_parse_failed` for a
   * file it cannot read or that holds no text, `invalid_argument` for a malformed request, and
   * `cancelled` when the call is cancelled.
   */
  parse(
    args: { file: Blob; name: string; format: WorkerDocumentFormat; sizes: ChunkSizes },
    ctx: CallContext<ChunksEvent>,
  ): Promise<{ title: string; mimeType: string; chunks: number }>;
};
