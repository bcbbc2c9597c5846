import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import type { PdfjsLib } from './parse-pdf';

let loaded: Promise<PdfjsLib> | null = null;

/**
 * pdf.js for the browser, loaded on first use (it is large) with its worker self-hosted: Vite
 * emits `pdf.worker.min.mjs` as an asset of the app, so no CDN is ever asked for it.
 */
export function loadBrowserPdfjs(): Promise<PdfjsLib> {
  loaded ??= import('pdfjs-dist').then((lib) => {
    lib.GlobalWorkerOptions.workerSrc = workerUrl;
    return lib;
  });
  return loaded;
}
