import { AppError } from '../../core/errors';

/** The text encodings a plain-text import is read in (D40). */
export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be' | 'gb18030' | 'windows-1252';

/** What {@link readBlob} read: every byte, and the decoded text when asked for. */
export interface BlobContent {
  bytes: Uint8Array;
  text?: string;
  /** The encoding the text was decoded from. */
  encoding?: TextEncodingName;
}

/**
 * Decodes bytes that are not valid UTF-8 (D40): a UTF-16 byte-order mark says UTF-16; otherwise
 * GB18030 when it decodes them without a single invalid sequence and yields Chinese (as Chinese
 * text saved by Windows tools is), else Windows-1252, which maps every byte (Western European
 * text saved as "ANSI"/Latin-1). The GB18030 attempt is kept when it wins, not decoded again.
 */
export function decodeLegacy(bytes: Uint8Array): { text: string; encoding: TextEncodingName } {
  const as = (encoding: TextEncodingName) => ({
    text: new TextDecoder(encoding).decode(bytes),
    encoding,
  });
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return as('utf-16le');
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return as('utf-16be');
  const gb = new TextDecoder('gb18030').decode(bytes);
  if (!gb.includes('\uFFFD') && /\p{Script=Han}/u.test(gb))
    return { text: gb, encoding: 'gb18030' };
  return as('windows-1252');
}

/**
 * Reads a `Blob`/`File` as a stream (`Blob.stream()`), calling `onProgress` with the bytes read
 * so far after every chunk. With `decode`, the text is decoded as UTF-8 chunk by chunk
 * (`TextDecoder` with `stream: true`, so a character split across chunks survives; a BOM is
 * dropped). Bytes that are not valid UTF-8 are decoded once more, as a whole, in the encoding
 * {@link decodeLegacy} picks (D40). Rejects with `cancelled` when `signal` aborts.
 */
export async function readBlob(
  blob: Blob,
  options: { decode: boolean; onProgress?: (loadedBytes: number) => void; signal?: AbortSignal },
): Promise<BlobContent> {
  const { signal } = options;
  if (signal?.aborted) throw new AppError('cancelled', 'The import was cancelled.');
  const reader = blob.stream().getReader();
  // Fatal: the first invalid sequence stops UTF-8 decoding, and the legacy path takes over.
  let decoder = options.decode ? new TextDecoder('utf-8', { fatal: true }) : null;
  let utf8 = options.decode;
  const parts: Uint8Array[] = [];
  const textParts: string[] = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (signal?.aborted) {
      await reader.cancel();
      throw new AppError('cancelled', 'The import was cancelled.');
    }
    parts.push(value);
    loaded += value.byteLength;
    if (decoder !== null) {
      try {
        textParts.push(decoder.decode(value, { stream: true }));
      } catch {
        decoder = null;
        utf8 = false;
      }
    }
    options.onProgress?.(loaded);
  }
  if (signal?.aborted) throw new AppError('cancelled', 'The import was cancelled.');
  const bytes = await concat(parts, loaded);
  if (!options.decode) return { bytes };
  if (utf8 && decoder !== null) {
    try {
      textParts.push(decoder.decode());
      return { bytes, text: textParts.join(''), encoding: 'utf-8' };
    } catch {
      // The file ends inside a multi-byte sequence: not UTF-8 after all.
    }
  }
  return { bytes, ...decodeLegacy(bytes) };
}

/** Bytes copied into the joined buffer between two yields to the host (X174). */
const CONCAT_SLICE_BYTES = 4 * 1024 * 1024;

/**
 * The read chunks as one buffer. The copy is cut into slices of {@link CONCAT_SLICE_BYTES} with a
 * macrotask between them: joining a 50 MB file in one go blocked the page for about 1.5 s (X174).
 */
async function concat(parts: Uint8Array[], length: number): Promise<Uint8Array> {
  if (parts.length === 1 && parts[0] !== undefined) return parts[0];
  const out = new Uint8Array(length);
  let at = 0;
  let sinceYield = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
    sinceYield += part.byteLength;
    if (sinceYield >= CONCAT_SLICE_BYTES && at < length) {
      sinceYield = 0;
      await new Promise<void>((resolve) => setTimeout(resolve, 0));
    }
  }
  return out;
}
