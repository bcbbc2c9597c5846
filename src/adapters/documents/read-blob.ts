import { AppError } from '../../core/errors';

/** What {@link readBlob} read: every byte, and the decoded text when asked for. */
export interface BlobContent {
  bytes: Uint8Array;
  text?: string;
}

/**
 * Reads a `Blob`/`File` as a stream (`Blob.stream()`), calling `onProgress` with the bytes read
 * so far after every chunk. With `decode`, the text is decoded as UTF-8 chunk by chunk
 * (`TextDecoder` with `stream: true`, so a character split across chunks survives; a BOM is
 * dropped, invalid bytes become U+FFFD). Rejects with `cancelled` when `signal` aborts.
 */
export async function readBlob(
  blob: Blob,
  options: { decode: boolean; onProgress?: (loadedBytes: number) => void; signal?: AbortSignal },
): Promise<BlobContent> {
  const { signal } = options;
  if (signal?.aborted) throw new AppError('cancelled', 'The import was cancelled.');
  const reader = blob.stream().getReader();
  const decoder = options.decode ? new TextDecoder('utf-8') : null;
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
    if (decoder !== null) textParts.push(decoder.decode(value, { stream: true }));
    options.onProgress?.(loaded);
  }
  if (signal?.aborted) throw new AppError('cancelled', 'The import was cancelled.');
  const bytes = concat(parts, loaded);
  if (decoder === null) return { bytes };
  textParts.push(decoder.decode());
  return { bytes, text: textParts.join('') };
}

function concat(parts: Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1 && parts[0] !== undefined) return parts[0];
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}
