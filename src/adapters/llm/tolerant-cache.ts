import type { ModelCache } from './model-manager';

/**
 * A cache whose status checks never fail a download: a model web-llm's list does not know (the
 * e2e build's scripted model) or a Cache Storage error reads as "not cached" / 0 bytes.
 */
export function tolerantCache(cache: ModelCache): ModelCache {
  const warn = (what: string) => (error: unknown) => {
    console.warn(`model cache: ${what} failed`, error);
  };
  return {
    has: (id) => cache.has(id).catch((e: unknown) => (warn('has')(e), false)),
    bytes: (id) => cache.bytes(id).catch((e: unknown) => (warn('bytes')(e), 0)),
    remove: (id) => cache.remove(id),
  };
}
