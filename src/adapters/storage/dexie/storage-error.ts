import { AppError } from '../../../core/errors';

interface ErrorLike {
  name?: unknown;
  inner?: unknown;
  message?: unknown;
}

/**
 * Whether `error` is a quota failure: `QuotaExceededError` itself, or (Chrome) an `AbortError`
 * whose `.inner` is one, possibly wrapped again by Dexie.
 */
export function isQuotaError(error: unknown): boolean {
  let e: unknown = error;
  for (let depth = 0; depth < 4 && typeof e === 'object' && e !== null; depth += 1) {
    const like = e as ErrorLike;
    if (like.name === 'QuotaExceededError') return true;
    e = like.inner;
  }
  return false;
}

/** Maps a failure of an IndexedDB operation to the AppError the UI knows how to explain. */
export function toStorageError(error: unknown, what: string): AppError {
  if (error instanceof AppError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (isQuotaError(error)) {
    return new AppError(
      'storage_quota_exceeded',
      `The browser's storage quota is full; nothing of "${what}" was saved.`,
      { cause: message },
    );
  }
  return new AppError('storage_failed', `Storage failed during "${what}": ${message}`);
}
