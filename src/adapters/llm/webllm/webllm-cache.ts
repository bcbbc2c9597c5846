import type { AppConfig } from '@mlc-ai/web-llm';
import type { Tokenizer } from '../../../core/ports/tokenizer';
import { createHfTokenizer } from '../../tokenizer/hf-tokenizer';

/** web-llm's Cache Storage buckets (its `cacheBackend: 'cache'` default). */
export const WEBLLM_MODEL_CACHE = 'webllm/model';
export const WEBLLM_CACHES = ['webllm/model', 'webllm/config', 'webllm/wasm'] as const;

/** web-llm's own URL normalisation: a model URL gets `/resolve/main/` unless it names a ref. */
export function modelBaseUrl(modelUrl: string): string {
  let url = modelUrl.endsWith('/') ? modelUrl : `${modelUrl}/`;
  if (!/.+\/resolve\/.+\//.test(url)) url += 'resolve/main/';
  return url;
}

/** Where web-llm caches a model's tokenizer.json. */
export function tokenizerJsonUrl(modelUrl: string): string {
  return new URL('tokenizer.json', modelBaseUrl(modelUrl)).href;
}

/**
 * Builds the exact tokenizer from the tokenizer.json web-llm cached during the load (rule E8).
 * Null when it is not there (another cache backend, or the entry was evicted).
 */
export async function loadCachedTokenizer(
  modelId: string,
  cacheName: string,
  url: string,
): Promise<Tokenizer | null> {
  if (typeof caches === 'undefined') return null;
  const cache = await caches.open(cacheName);
  const response = await cache.match(url);
  if (!response) return null;
  const json = (await response.json()) as object;
  return createHfTokenizer(modelId, json);
}

/**
 * Bytes a model occupies in Cache Storage: its weight shards, config and tokenizer (under the
 * model URL) and its compiled library (`model_lib`). Uses each entry's Content-Length, falling
 * back to reading the body.
 */
export async function modelStorageBytes(modelId: string, appConfig: AppConfig): Promise<number> {
  if (typeof caches === 'undefined') return 0;
  const record = appConfig.model_list.find((m) => m.model_id === modelId);
  if (!record) return 0;
  const base = modelBaseUrl(record.model);
  let total = 0;
  for (const name of WEBLLM_CACHES) {
    if (!(await caches.has(name))) continue;
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      if (!request.url.startsWith(base) && request.url !== record.model_lib) continue;
      const response = await cache.match(request);
      if (!response) continue;
      const header = Number(response.headers.get('content-length'));
      total += Number.isFinite(header) && header > 0 ? header : (await response.blob()).size;
    }
  }
  return total;
}
