import { iterateChunks, type DocumentChunk } from '../core/documents/chunk';
import type { ChunkSizes } from '../core/documents/document-source';
import { documentTitle, type ParsedDocument } from '../core/documents/parsed-document';
import { AppError } from '../core/errors';
import { contentHash } from '../adapters/documents/content-hash';
import { parseTextFormat } from '../adapters/documents/parse-text-format';
import { readBlob, type BlobContent } from '../adapters/documents/read-blob';
import type { DocumentApi, WorkerDocumentFormat } from '../rpc/document-api';

export interface DocumentWorkerOptions {
  /** Milliseconds between two `parsing` events at most. */
  progressMs?: number;
  /** Milliseconds of chunking between two yields to the worker's event loop (for a cancel). */
  sliceMs?: number;
  now?: () => number;
}

const FORMATS: ReadonlySet<string> = new Set<WorkerDocumentFormat>(['text', 'markdown', 'html']);
const SIZE_KEYS = ['maxTokens', 'overlapTokens', 'paragraphFill'] as const;

/** Parsed files kept at most; the page imports one at a time. */
const MAX_HELD = 3;

const yieldNow = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * The document worker's handlers (X177): read, hash, parse (text, Markdown, HTML — the parsers of
 * `src/adapters/documents`, which need no DOM) and chunk, off the page. The chunks stay here
 * until released and leave a slice at a time; the chunker yields every `sliceMs` so a cancel
 * gets in, and reports progress every `progressMs`.
 */
export function createDocumentHandlers(
  options: DocumentWorkerOptions = {},
): DocumentApi & { heldCount(): number } {
  const progressMs = options.progressMs ?? 100;
  const sliceMs = options.sliceMs ?? 50;
  const now = options.now ?? (() => performance.now());
  /** Parsed files' chunks by handle, until released. */
  const held = new Map<number, DocumentChunk[]>();
  let nextHandle = 1;

  return {
    async hello() {
      return 'ready';
    },

    async hash(args, ctx) {
      const file = blobOf(args);
      let reported = 0;
      const step = Math.max(1, Math.floor(file.size / 100));
      const content = await readOrFail(file, 'this file', {
        decode: false,
        signal: ctx.signal,
        // About a hundred events for any size: each is a task on the page.
        onProgress: (loadedBytes) => {
          if (loadedBytes - reported < step && loadedBytes < file.size) return;
          reported = loadedBytes;
          ctx.emit({ type: 'reading', loadedBytes });
        },
      });
      return { contentHash: await contentHash(content.bytes) };
    },

    async parse(args, ctx) {
      const { file, name, format, sizes } = parseArgs(args);
      const content = await readOrFail(file, name, { decode: true, signal: ctx.signal });
      if (ctx.signal.aborted) throw cancelled();
      const whole = parseTextFormat(format, content.text ?? '', name);
      const document: ParsedDocument = { ...whole, title: documentTitle(whole.title) };
      const totalChars = document.text.length;
      const chunks: DocumentChunk[] = [];
      let lastYield = now();
      let lastSend = lastYield;
      for (const chunk of iterateChunks(document, sizes)) {
        chunks.push(chunk);
        if (now() - lastSend >= progressMs) {
          ctx.emit({ type: 'parsing', doneChars: chunk.end, totalChars });
          lastSend = now();
        }
        if (now() - lastYield >= sliceMs) {
          await yieldNow();
          if (ctx.signal.aborted) throw cancelled();
          lastYield = now();
        }
      }
      if (ctx.signal.aborted) throw cancelled();
      ctx.emit({ type: 'parsing', doneChars: totalChars, totalChars });
      if (chunks.length === 0) {
        throw new AppError(
          'document_parse_failed',
          `“${document.title}” contains no text to import.`,
          { name },
        );
      }
      const handle = nextHandle++;
      held.set(handle, chunks);
      // A page that cancelled just as the result left never releases it; imports run one at a
      // time, so the oldest beyond a few can only be such a leftover.
      for (const old of held.keys()) if (held.size > MAX_HELD) held.delete(old);
      return { handle, title: document.title, mimeType: document.mimeType, chunks: chunks.length };
    },

    async slice(args) {
      const { handle, from, to } = (args ?? {}) as {
        handle?: unknown;
        from?: unknown;
        to?: unknown;
      };
      const chunks = typeof handle === 'number' ? held.get(handle) : undefined;
      if (chunks === undefined) {
        throw new AppError(
          'not_found',
          `The document worker holds no parsed file ${String(handle)}.`,
        );
      }
      if (
        !Number.isInteger(from) ||
        !Number.isInteger(to) ||
        (from as number) < 0 ||
        (to as number) < (from as number)
      ) {
        throw new AppError('invalid_argument', 'A slice is two whole numbers, 0 ≤ from ≤ to.');
      }
      return chunks.slice(from as number, to as number);
    },

    async release(args) {
      const handle = (args as { handle?: unknown } | null)?.handle;
      if (typeof handle === 'number') held.delete(handle);
    },

    heldCount: () => held.size,
  };
}

function cancelled(): AppError {
  return new AppError('cancelled', 'The import was cancelled.');
}

function blobOf(args: unknown): Blob {
  const file = (args as { file?: unknown } | null)?.file;
  if (!(file instanceof Blob)) {
    throw new AppError('invalid_argument', 'The document worker was sent no file.');
  }
  return file;
}

function parseArgs(args: unknown): {
  file: Blob;
  name: string;
  format: WorkerDocumentFormat;
  sizes: ChunkSizes;
} {
  const file = blobOf(args);
  const { name, format, sizes } = args as { name?: unknown; format?: unknown; sizes?: unknown };
  if (typeof name !== 'string') {
    throw new AppError('invalid_argument', 'The document worker was sent no file name.');
  }
  if (typeof format !== 'string' || !FORMATS.has(format)) {
    throw new AppError('invalid_argument', `The document worker cannot parse “${String(format)}”.`);
  }
  const given = (sizes ?? {}) as Record<string, unknown>;
  for (const key of SIZE_KEYS) {
    const value = given[key];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new AppError('invalid_argument', `The chunk size “${key}” is not a number ≥ 0.`);
    }
  }
  if ((given.maxTokens as number) < 1) {
    throw new AppError('invalid_argument', 'The chunk size “maxTokens” is below 1.');
  }
  return { file, name, format: format as WorkerDocumentFormat, sizes: given as ChunkSizes };
}

/** Reads the file; a read the browser refuses (file gone, unreadable) is a parse failure. */
async function readOrFail(
  file: Blob,
  name: string,
  options: Parameters<typeof readBlob>[1],
): Promise<BlobContent> {
  try {
    return await readBlob(file, options);
  } catch (error) {
    if (error instanceof AppError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new AppError('document_parse_failed', `“${name}” could not be read: ${reason}`, {
      name,
    });
  }
}
