import { describe, expect, it, vi } from 'vitest';
import { loadBrowserPdfjs } from './pdfjs-browser';

describe('loadBrowserPdfjs', () => {
  it('D5: the pdf.js worker is the app’s own asset (a Vite ?url import), never a CDN', async () => {
    // The browser build of pdf.js needs DOMMatrix to load; Node has none. Nothing here renders.
    vi.stubGlobal('DOMMatrix', class {});
    const lib = (await loadBrowserPdfjs()) as unknown as {
      GlobalWorkerOptions: { workerSrc: string };
    };
    const src = lib.GlobalWorkerOptions.workerSrc;
    expect(src).toMatch(/pdf\.worker\.min\.mjs$/);
    expect(src).not.toMatch(/^https?:/);
    expect(await loadBrowserPdfjs()).toBe(lib);
    vi.unstubAllGlobals();
  });
});
