/**
 * The document worker's handler map (`src/workers/document.worker.ts`, rule X177): a text,
 * Markdown or HTML file is read, hashed, parsed and chunked there, so a huge file never blocks
 * the page. The file crosses as a `Blob` (structured clone passes a reference, not the bytes);
 * the chunks stay in the worker and the page fetches them a slice at a time, never the text.
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

/** What `parse` emits: how far the chunker is, in characters of the document text. */
export interface ParsingEvent {
  type: 'parsing';
  doneChars: number;
  totalChars: number;
}

export type DocumentApi = {
  /** Answers once the worker's script runs: the page's check that a worker can start at all. */
  hello(args: null): Promise<'ready'>;
  /** Reads every byte (emitting progress) and returns its lower-case hex SHA-256. */
  hash(args: { file: Blob }, ctx: CallContext<ReadEvent>): Promise<{ contentHash: string }>;
  /**
   * Reads, parses and chunks the file, emitting progress, and keeps the chunks under the
   * returned handle until `release`. Resolves with the title, MIME type and the number of
   * chunks. Rejects with `document_parse_failed` for a file it cannot read or that holds no
   * text, `invalid_argument` for a malformed request, and `cancelled` when cancelled.
   */
  parse(
    args: { file: Blob; name: string; format: WorkerDocumentFormat; sizes: ChunkSizes },
    ctx: CallContext<ParsingEvent>,
  ): Promise<{ handle: number; title: string; mimeType: string; chunks: number }>;
  /** Chunks `[from, to)` of a parsed file; `not_found` for a handle released or never made. */
  slice(args: { handle: number; from: number; to: number }): Promise<DocumentChunk[]>;
  /** Frees a parsed file's chunks (a handle unknown by now is fine). */
  release(args: { handle: number }): Promise<void>;
};
