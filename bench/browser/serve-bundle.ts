/**
 * Bundles a browser entry with esbuild (shipped with Vite) into a temp dir and serves it with a
 * tiny page on http://127.0.0.1 (a secure context, as IndexedDB quota and WebGPU want).
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';

export interface ServedBundle {
  url: string;
  close(): Promise<void>;
}

export interface ServeOptions {
  /** Headers on every response (e.g. COOP/COEP for cross-origin isolation). */
  headers?: Record<string, string>;
  /** More files to serve: URL path → file on disk. */
  files?: Record<string, string>;
}

export async function serveBundle(
  entry: string,
  options: ServeOptions = {},
): Promise<ServedBundle> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'loci-bench-'));
  await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    outfile: path.join(dir, 'bundle.js'),
    logLevel: 'warning',
  });
  await writeFile(
    path.join(dir, 'index.html'),
    '<!doctype html><meta charset="utf-8"><title>bench</title><script type="module" src="/bundle.js"></script>',
  );
  const server: Server = createServer((req, res) => {
    const extra = options.files?.[(req.url ?? '').split('?')[0] ?? ''];
    const file = extra ?? (req.url === '/bundle.js' ? 'bundle.js' : 'index.html');
    const type = file.endsWith('.js')
      ? 'text/javascript'
      : file.endsWith('.wasm')
        ? 'application/wasm'
        : extra
          ? 'application/octet-stream'
          : 'text/html';
    // Streamed, so a model file of a gigabyte is never held in the server's memory.
    const at = extra ?? path.join(dir, file);
    stat(at).then(
      (info) => {
        res.writeHead(200, {
          'content-type': type,
          'content-length': info.size,
          ...options.headers,
        });
        createReadStream(at).pipe(res);
      },
      (error: unknown) => {
        res.writeHead(500);
        res.end(String(error));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/`,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
