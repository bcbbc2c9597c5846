import type { ParsedDocument } from './parsed-document';

/** A read document: its content hash, and a parser for the bytes already read. */
export interface ReadDocument {
  /** Lower-case hex SHA-256 of the file's bytes (the dedupe key). */
  contentHash: string;
  /** Parses the bytes; rejects with `document_parse_failed` / `document_unsupported`. */
  parse(signal?: AbortSignal): Promise<ParsedDocument>;
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
