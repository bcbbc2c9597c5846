import type { ChunkOptions, DocumentChunk } from './chunk';
import type { ParsedDocument } from './parsed-document';

/** The chunker's sizes without its `measure` (a function cannot cross to a worker). */
export type ChunkSizes = Omit<ChunkOptions, 'measure'>;

/** How far parsing and chunking is: characters of the document text chunked so far. */
export interface ParseProgress {
  doneChars: number;
  totalChars: number;
}

/**
 * A document parsed and chunked elsewhere: what the import needs of it, without its text. The
 * chunks stay where they were made and are fetched a slice at a time, so the page never holds
 * a huge document's passages all at once (X177).
 */
export interface ChunkedDocument {
  title: string;
  mimeType: string;
  /** How many chunks there are. */
  count: number;
  /** Chunks `[from, to)`, in order. */
  slice(from: number, to: number): Promise<DocumentChunk[]>;
  /** Frees the chunks where they are held; called once when the import has ended. */
  release(): void;
}

/** A read document: its content hash, and a parser for the bytes already read. */
export interface ReadDocument {
  /** Lower-case hex SHA-256 of the file's bytes (the dedupe key). */
  contentHash: string;
  /** Parses the bytes; rejects with `document_parse_failed` / `document_unsupported`. */
  parse(signal?: AbortSignal): Promise<ParsedDocument>;
  /**
   * Parses and chunks off the caller's thread (the document worker, X177), reporting progress
   * as the chunks arrive. When present the import uses it instead of `parse` and the chunker
   * (unless a custom `measure` is asked for). Rejects like `parse`, and with `cancelled`.
   */
  parseChunked?(
    sizes: ChunkSizes,
    onProgress: (progress: ParseProgress) => void,
    signal?: AbortSignal,
  ): Promise<ChunkedDocument>;
}

/**
 * A file to import, as the ingest pipeline sees it (the port for `src/adapters/documents`).
 * Reading is split from parsing so a re-import is recognised by its hash before any parsing.
 */
export interface DocumentSource {
  /** File name as the user picked it (the fallback title). */
  readonly name: string;
  readonly mimeType: string;
  /** Size in bytes. */
  readonly bytes: number;
  /** Reads every byte, calling `onProgress` as they stream in; rejects with `cancelled` on abort. */
  read(onProgress: (loadedBytes: number) => void, signal?: AbortSignal): Promise<ReadDocument>;
}
