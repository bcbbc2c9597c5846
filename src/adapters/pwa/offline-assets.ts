/**
 * Offline means offline (P30, P31, ADR 0189). On a first visit the page, the LLM worker and
 * wllama's worker fetch the engines' code before the service worker controls anything, so its
 * runtime routes never see those requests. After a local model loads, the page lists the code
 * files they fetched, asks the active service worker to run each through its own routes
 * (Workbox's `CACHE_URLS` message: the same strategy, cache and expiration as a fetch), and then
 * checks that Cache Storage holds every one — only then may the app say it works offline.
 */

/** What counts as code: scripts, styles and wasm. Models and data have caches of their own. */
const CODE_FILE = /\.(?:m?js|css|wasm)$/;
/** How long the service worker may take to fetch and store what it was asked to keep. */
export const CACHE_REPLY_MS = 60_000;
/** How long the cache writes may trail the service worker's answer (a 10 MB wasm on a slow disk). */
export const SETTLE_MS = 30_000;
const SETTLE_STEP_MS = 250;

/** The outcome of {@link secureOfflineAssets}. */
export type OfflineCheck =
  /** Every code file fetched so far is in Cache Storage. */
  | { type: 'ready'; files: number }
  /** These files would be missing offline. */
  | { type: 'missing'; urls: string[] }
  /** No service worker or Cache Storage here: nothing can work offline. */
  | { type: 'unsupported' };

/** The browser pieces {@link secureOfflineAssets} uses (fakes in unit tests). */
export interface OfflineAssetsEnv {
  /** The page's origin: only its own files are the service worker's to keep. */
  origin: string;
  /** The active service worker, once there is one; null where service workers are missing. */
  activeWorker(): Promise<Pick<ServiceWorker, 'postMessage'> | null>;
  /** The URLs the page itself fetched. */
  pageFetched(): string[];
  /** The URLs the LLM worker and its engine fetched. */
  engineFetched(): Promise<string[]>;
  /** Whether Cache Storage holds a response for `url` (any cache: precache or runtime). */
  cached(url: string): Promise<boolean>;
  /** Waits `ms`, then resolves. */
  wait(ms: number): Promise<void>;
}

/**
 * The code files among `urls` that the service worker could keep: same origin, http(s), a script,
 * style or wasm; each once, without its fragment. Blob and data URLs and other origins (model
 * hosts, a model server) are left out.
 */
export function offlineCodeUrls(urls: readonly string[], origin: string): string[] {
  const kept = new Set<string>();
  for (const raw of urls) {
    let url: URL;
    try {
      url = new URL(raw, origin);
    } catch {
      continue; // not a URL at all (a resource entry's name always is; this is defensive)
    }
    if (url.origin !== origin || !url.protocol.startsWith('http')) continue;
    if (!CODE_FILE.test(url.pathname)) continue;
    url.hash = '';
    kept.add(url.href);
  }
  return [...kept];
}

/**
 * Asks the active service worker to keep `urls` and resolves true once it says it has, or false
 * after `CACHE_REPLY_MS` (a file that cannot be fetched now makes Workbox never answer).
 */
function askToKeep(
  worker: Pick<ServiceWorker, 'postMessage'>,
  urls: string[],
  wait: (ms: number) => Promise<void>,
): Promise<boolean> {
  const channel = new MessageChannel();
  const replied = new Promise<boolean>((resolve) => {
    channel.port1.onmessage = () => resolve(true);
  });
  worker.postMessage(
    { type: 'CACHE_URLS', meta: 'workbox-window', payload: { urlsToCache: urls } },
    [channel.port2],
  );
  return Promise.race([replied, wait(CACHE_REPLY_MS).then(() => false)]).finally(() =>
    channel.port1.close(),
  );
}

/**
 * Has the service worker keep every code file the page and the LLM worker fetched, then checks
 * that each is in Cache Storage. Waits for an active service worker first (on a first visit it
 * may still be installing); where registration failed, that wait never ends and nothing is said.
 * Workbox answers as soon as each response is in hand and writes the caches after (in
 * `waitUntil`), so the check looks again every {@link SETTLE_STEP_MS} for up to
 * {@link SETTLE_MS} before it names a file missing.
 */
export async function secureOfflineAssets(env: OfflineAssetsEnv): Promise<OfflineCheck> {
  const worker = await env.activeWorker();
  if (!worker) return { type: 'unsupported' };
  const urls = offlineCodeUrls([...env.pageFetched(), ...(await env.engineFetched())], env.origin);
  await askToKeep(worker, urls, env.wait);
  let missing = urls;
  for (let waited = 0; ; waited += SETTLE_STEP_MS) {
    const still: string[] = [];
    for (const url of missing) if (!(await env.cached(url))) still.push(url);
    missing = still;
    if (missing.length === 0) return { type: 'ready', files: urls.length };
    if (waited >= SETTLE_MS) return { type: 'missing', urls: missing };
    await env.wait(SETTLE_STEP_MS);
  }
}

/** {@link OfflineAssetsEnv} in a browser page; `engineFetched` comes from the LLM worker. */
export function browserOfflineEnv(engineFetched: () => Promise<string[]>): OfflineAssetsEnv {
  const supported = 'serviceWorker' in navigator && typeof caches !== 'undefined';
  return {
    origin: location.origin,
    activeWorker: async () =>
      supported ? ((await navigator.serviceWorker.ready).active ?? null) : null,
    pageFetched: () => performance.getEntriesByType('resource').map((entry) => entry.name),
    engineFetched,
    // Precached files without a hash in their name are stored with a `__WB_REVISION__` query;
    // Vary is ignored as the service worker's routes ignore it (vite.config.ts).
    cached: async (url) =>
      (await caches.match(url, { ignoreSearch: true, ignoreVary: true })) !== undefined,
    wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
}
