import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AppError } from '../core/errors';
import { describeError, errorCopy, ERROR_COPY_CODES } from './error-copy';

/** The codes declared in the shared union, read from the source so a new code cannot be missed. */
function declaredCodes(): string[] {
  const source = readFileSync(new URL('../core/errors.ts', import.meta.url), 'utf8');
  const union = /export type ErrorCode =([\s\S]*?);/.exec(source)?.[1] ?? '';
  return [...union.matchAll(/'([a-z0-9_]+)'/g)].map((m) => m[1] ?? '');
}

describe('error copy', () => {
  it('U30: every ErrorCode has a sentence for what happened and one for what to do', () => {
    const codes = declaredCodes();
    expect(codes.length).toBeGreaterThan(20);
    expect([...ERROR_COPY_CODES].sort()).toEqual([...codes].sort());
    for (const code of codes) {
      const copy = errorCopy(code as never);
      expect(copy.what, code).toMatch(/^[A-Z].{10,}[.!]$/);
      expect(copy.action, code).toMatch(/^[A-Z].{10,}[.!]$/);
      expect(copy.what).not.toContain('_');
    }
  });

  it('U30: the missing-model error tells the user to go to Models', () => {
    const copy = describeError(new AppError('model_not_loaded', 'no engine'));
    expect(copy.code).toBe('model_not_loaded');
    expect(copy.action).toContain('Models');
    expect(copy.detail).toBe('no engine');
  });

  it('U30: a plain Error is described as internal, and a wire error keeps its code', () => {
    expect(describeError(new Error('boom')).code).toBe('internal');
    expect(describeError({ code: 'storage_quota_exceeded', message: 'full' }).what).toContain(
      'storage',
    );
  });
});
