import { describe, expect, it } from 'vitest';
import { isQuotaError, toStorageError } from './storage-error';

describe('storage errors', () => {
  it("S7: Chrome's AbortError with an inner QuotaExceededError is a quota error", () => {
    const inner = new DOMException('full', 'QuotaExceededError');
    const abort = Object.assign(new DOMException('aborted', 'AbortError'), { inner });
    const dexieWrapped = { name: 'AbortError', message: 'Transaction aborted', inner: abort };
    expect(isQuotaError(inner)).toBe(true);
    expect(isQuotaError(abort)).toBe(true);
    expect(isQuotaError(dexieWrapped)).toBe(true);
    expect(isQuotaError(new DOMException('aborted', 'AbortError'))).toBe(false);
    expect(toStorageError(dexieWrapped, 'save')).toMatchObject({ code: 'storage_quota_exceeded' });
    expect(toStorageError(new Error('boom'), 'save')).toMatchObject({ code: 'storage_failed' });
  });
});
