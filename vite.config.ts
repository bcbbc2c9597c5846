import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { VitePWA } from 'vite-plugin-pwa';
import { lociAssets } from './scripts/vite-plugin-loci-assets';
import { securityHeadersPlugin } from './scripts/vite-plugin-security-headers';

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
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,mjs}'],
        globIgnores: ['**/ort/**', '**/models/**', '**/*.wasm', '**/pdf.worker*'],
        // The lazily loaded web-llm chunk is ~6 MB; it is part of the shell so chat loads offline.
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
  },
  worker: { format: 'es' },
  build: { target: 'es2022', sourcemap: false },
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
}));
