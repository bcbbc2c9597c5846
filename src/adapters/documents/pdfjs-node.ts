import type { PdfjsLib } from './parse-pdf';

/**
 * pdf.js for Node (tests, benchmarks): the legacy build, which runs on Node 20 and, without a
 * `workerSrc`, parses on the calling thread through its built-in fake worker.
 */
export async function loadNodePdfjs(): Promise<PdfjsLib> {
  return (await import('pdfjs-dist/legacy/build/pdf.mjs')) as PdfjsLib;
}
