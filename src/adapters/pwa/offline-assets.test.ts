import { describe, expect, it } from 'vitest';
import {
  CACHE_REPLY_MS,
  offlineCodeUrls,
  secureOfflineAssets,
  SETTLE_MS,
  type OfflineAssetsEnv,
} from './offline-assets';

const ORIGIN = 'http://127.0.0.1:4173';
const CHUNK = `${ORIGIN}/assets/wllama-lib-abc.js`;
const WASM = `${ORIGIN}/wllama/wllama.wasm`;

/**
 * A page and service worker in memory: the worker "keeps" what it is asked to (after `lag`
 * checks, as Workbox writes after it answers) unless the file is `unreachable`; `answers: false`
 * is a worker that never replies.
 */
function fakeEnv(options: {
  page?: string[];
  engine?: string[];
  unreachable?: string[];
  answers?: boolean;
  lag?: number;
}) {
  const kept = new Set<string>();
  const asked: string[][] = [];
  let checks = 0;
  let waited = 0;
  const env: OfflineAssetsEnv = {
    origin: ORIGIN,
    activeWorker: async () => ({
      postMessage: (message: { type: string; payload: { urlsToCache: string[] } }, ports) => {
        expect(message.type).toBe('CACHE_URLS');
        asked.push(message.payload.urlsToCache);
        for (const url of message.payload.urlsToCache)
          if (!options.unreachable?.includes(url)) kept.add(url);
        const port = (ports as MessagePort[] | undefined)?.[0];
        if (options.answers !== false) port?.postMessage(true);
      },
    }),
    pageFetched: () => options.page ?? [],
    engineFetched: async () => options.engine ?? [],
    cached: async (url) => {
      checks += 1;
      return kept.has(url) && checks > (options.lag ?? 0);
    },
    wait: async (ms) => {
      waited += ms;
    },
  };
  return { env, asked, waited: () => waited };
}

describe('offline assets (P30, P31)', () => {
  it('P30: keeps same-origin scripts, styles and wasm, once each — not models, blobs or other hosts', () => {
    expect(
      offlineCodeUrls(
        [
          `${ORIGIN}/assets/main-1.js`,
          `${ORIGIN}/assets/main-1.js#x`,
          `${ORIGIN}/assets/main-1.css`,
          `${ORIGIN}/assets/pdf.worker.min-2.mjs`,
          WASM,
          `${ORIGIN}/models/loci-fixture-llama.gguf`,
          `${ORIGIN}/favicon.svg`,
          'blob:http://127.0.0.1:4173/1234',
          'https://huggingface.co/x/resolve/main/model.js',
          'http://127.0.0.1:11434/v1/chat.js',
        ],
        ORIGIN,
      ),
    ).toEqual([
      `${ORIGIN}/assets/main-1.js`,
      `${ORIGIN}/assets/main-1.css`,
      `${ORIGIN}/assets/pdf.worker.min-2.mjs`,
      WASM,
    ]);
  });

  it('P30: asks the service worker to keep what the page and the LLM worker fetched, and is ready once all are cached', async () => {
    const { env, asked } = fakeEnv({ page: [`${ORIGIN}/assets/main-1.js`], engine: [CHUNK, WASM] });
    expect(await secureOfflineAssets(env)).toEqual({ type: 'ready', files: 3 });
    expect(asked).toEqual([[`${ORIGIN}/assets/main-1.js`, CHUNK, WASM]]);
  });

  it('P31: cache writes that trail the answer are waited for, not reported missing', async () => {
    const { env } = fakeEnv({ engine: [CHUNK, WASM], lag: 5 });
    expect(await secureOfflineAssets(env)).toEqual({ type: 'ready', files: 2 });
  });

  it('P31: a file the service worker could not keep is named, so nothing claims the app works offline', async () => {
    const { env, waited } = fakeEnv({ engine: [CHUNK, WASM], unreachable: [WASM], answers: false });
    expect(await secureOfflineAssets(env)).toEqual({ type: 'missing', urls: [WASM] });
    // It waited for the answer, then for the writes, and gave up: it does not hang.
    expect(waited()).toBeGreaterThanOrEqual(CACHE_REPLY_MS + SETTLE_MS);
  });

  it('P31: without a service worker nothing is claimed', async () => {
    const { env } = fakeEnv({ engine: [CHUNK] });
    expect(await secureOfflineAssets({ ...env, activeWorker: async () => null })).toEqual({
      type: 'unsupported',
    });
  });
});
