import type { GgufCacheStatus } from '../../../rpc/llm-api';

/**
 * The CPU engine's download cache: wllama's `CacheManager` (OPFS), one file per URL (rule E47).
 * A file counts as complete when its stored size equals the size the server reported; an
 * interrupted download keeps its finished files, so downloading again fetches only the rest.
 */
export function createGgufCache() {
  const manager = async () => new (await import('@wllama/wllama')).CacheManager();
  return {
    async status(urls: string[]): Promise<GgufCacheStatus> {
      const cache = await manager();
      let bytes = 0;
      let complete = urls.length > 0;
      for (const url of urls) {
        const name = await cache.getNameFromURL(url);
        const size = await cache.getSize(name);
        const meta = size >= 0 ? await cache.getMetadata(name) : null;
        if (size > 0) bytes += size;
        if (size < 0 || !meta || meta.originalSize !== size) complete = false;
      }
      return { complete, bytes };
    },
    async remove(urls: string[]): Promise<void> {
      const cache = await manager();
      for (const url of urls) await cache.delete(url);
    },
  };
}
