import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { VitePWA } from 'vite-plugin-pwa';
import { lociAssets } from './scripts/vite-plugin-loci-assets';
import { securityHeadersPlugin } from './scripts/vite-plugin-security-headers';

/** File-name stems of the engine library chunks (see `worker` and `workbox` below). */
const WEBLLM_CHUNK = 'webllm-lib';
const WLLAMA_CHUNK = 'wllama-lib';
/**
 * The servers here (`vite preview`, so `npm start`) answer with `Vary: Origin`. A file the app
 * asked the service worker to keep was stored under a request without an Origin header, and a
 * worker's module import sends one: with Vary honoured the cached copy never matched offline
 * (P30, ADR 0189). Each URL here holds one file whatever the origin asking.
 */
const IGNORE_VARY = { ignoreVary: true };

// The e2e build (`vite build --mode e2e`) is the production app plus the test doubles
// (scripted LLM engine, fixture embedder). A production build never contains them.
export default defineConfig(({ mode }) => ({
  plugins: [
    svelte(),
    lociAssets(),
    securityHeadersPlugin(),
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['favicon.svg', 'icons/apple-touch-icon.png'],
      manifest: {
        name: 'Loci — private AI companion',
        short_name: 'Loci',
        description:
          'A private AI companion and notes assistant that runs entirely in your browser: the model, its memory and your documents never leave this device.',
        start_url: '.',
        scope: '.',
        display: 'standalone',
        // Shared text and links arrive as GET params and become a note on the Documents screen.
        // Files need a POST that only a custom service worker could receive (ADR 0057).
        // Files and text by POST, answered by public/share-target-sw.js (ADR 0085); the GET
        // parameters of the first version (ADR 0057) are still read for installs that have it.
        share_target: {
          action: './share-target',
          method: 'POST',
          enctype: 'multipart/form-data',
          params: {
            title: 'share_title',
            text: 'share_text',
            url: 'share_url',
            files: [
              {
                name: 'share_files',
                accept: [
                  'text/plain',
                  'text/markdown',
                  'text/html',
                  'application/pdf',
                  '.txt',
                  '.md',
                  '.markdown',
                  '.html',
                  '.htm',
                  '.pdf',
                ],
              },
            ],
          },
        },
        theme_color: '#3b2f63',
        background_color: '#14121c',
        icons: [
          { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          {
            src: 'icons/icon-maskable-512.png',
            sizes: '512x512',
            type: 'image/png',
            purpose: 'maskable',
          },
        ],
      },
      workbox: {
        // The app shell only: model weights and the ONNX Runtime wasm are cached by web-llm
        // and transformers.js themselves (Cache Storage), never by this service worker.
        // Icons, the favicon and the manifest come in through includeAssets and the manifest
        // (globbing them too listed each twice).
        globPatterns: ['**/*.{js,css,html,mjs}'],
        // The engines' libraries load only when needed: web-llm's ~6 MB one once the user picks
        // a GPU model (it runs only where WebGPU does), wllama's (~210 kB) for a CPU model and for
        // the check whether one is downloaded. Neither is precached for every device; each is
        // cached the first time the LLM worker loads it (below), so chat still reloads offline wherever it ran once (issue 18, 13; U157, U195).
        globIgnores: [
          '**/ort/**',
          '**/models/**',
          '**/*.wasm',
          '**/pdf.worker*',
          `**/assets/${WEBLLM_CHUNK}-*.js`,
          `**/assets/${WLLAMA_CHUNK}-*.js`,
        ],
        runtimeCaching: [
          {
            // A RegExp, not a function: Workbox copies a function's source into sw.js, where
            // this file's constants do not exist. Same-origin only (Workbox's RegExp rule).
            urlPattern: new RegExp(`/assets/${WEBLLM_CHUNK}-[^/]*\\.js$`),
            handler: 'CacheFirst',
            options: {
              cacheName: 'loci-webllm-code',
              expiration: { maxEntries: 2 },
              matchOptions: IGNORE_VARY,
            },
          },
          {
            // Its own cache, so web-llm's (kept by installs from before) is never evicted by it.
            urlPattern: new RegExp(`/assets/${WLLAMA_CHUNK}-[^/]*\\.js$`),
            handler: 'CacheFirst',
            options: {
              cacheName: 'loci-wllama-code',
              expiration: { maxEntries: 2 },
              matchOptions: IGNORE_VARY,
            },
          },
          {
            // wllama's wasm (10 MB) keeps one name across versions, so the network comes first
            // (a new wllama chunk never runs an old wasm) and the cache answers offline (P30).
            urlPattern: /\/wllama\/wllama\.wasm$/,
            handler: 'NetworkFirst',
            options: {
              cacheName: 'loci-wllama-wasm',
              expiration: { maxEntries: 1 },
              matchOptions: IGNORE_VARY,
            },
          },
        ],
        // The first visit's page and workers come under the service worker as soon as it is
        // active, so what they fetch from then on goes through the routes above. What they
        // fetched before, the app asks it to keep (CACHE_URLS, src/adapters/pwa/offline-assets.ts;
        // P30, ADR 0189). An update still waits for the user (registerType 'prompt').
        clientsClaim: true,
        maximumFileSizeToCacheInBytes: 10 * 1024 * 1024,
        navigateFallback: 'index.html',
        // The POST share target's handler; it runs before Workbox's (GET-only) routes.
        importScripts: ['share-target-sw.js'],
        cleanupOutdatedCaches: true,
      },
    }),
  ],
  define: {
    __LOCI_E2E__: JSON.stringify(mode === 'e2e'),
    // The same list goes into the LLM worker's connect-src (scripts/security-headers.ts).
    __LOCI_MODEL_SERVERS__: JSON.stringify(process.env.LOCI_MODEL_SERVERS ?? ''),
  },
  worker: {
    format: 'es',
    rollupOptions: {
      output: {
        // Stable names for the engines' chunks, so the service worker can leave them out of
        // the precache and cache them on first use.
        chunkFileNames: (chunk: { moduleIds: readonly string[] }) =>
          chunk.moduleIds.some((id) => id.includes('@mlc-ai/web-llm'))
            ? `assets/${WEBLLM_CHUNK}-[hash].js`
            : chunk.moduleIds.some((id) => id.includes('@wllama/wllama'))
              ? `assets/${WLLAMA_CHUNK}-[hash].js`
              : 'assets/[name]-[hash].js',
      },
    },
  },
  build: { target: 'es2022', sourcemap: false },
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
}));
