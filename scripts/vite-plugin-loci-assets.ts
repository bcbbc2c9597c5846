/**
 * Vite plugin for the engines' static assets (rules E21, E26):
 * - always: the ONNX Runtime wasm that transformers.js needs, self-hosted under `/ort/` (copied
 *   from node_modules/onnxruntime-web/dist) so the embedder works offline and never hits a CDN,
 *   and wllama's wasm under `/wllama/` (rule E41);
 * - e2e mode only (`vite build --mode e2e`, `vite --mode e2e`): the fixture models under
 *   `/models/` and the engines harness page (tests/e2e/engines-harness/index.html).
 * Served by middleware in `vite dev`, emitted into the build (and so served by `vite preview`).
 * A production build also fails if the scripted test engine's marker string is in any chunk.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { Connect, Plugin } from 'vite';

// Must equal SCRIPTED_ENGINE_MARKER in src/adapters/llm/scripted/scripted-engine.ts.
const SCRIPTED_ENGINE_MARKER = 'loci-scripted-engine-test-double';

const ORT_FILES = ['ort-wasm-simd-threaded.asyncify.mjs', 'ort-wasm-simd-threaded.asyncify.wasm'];

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

function contentType(path: string): string {
  if (path.endsWith('.wasm')) return 'application/wasm';
  if (path.endsWith('.mjs') || path.endsWith('.js')) return 'text/javascript';
  if (path.endsWith('.json')) return 'application/json';
  return 'application/octet-stream';
}

export function lociAssets(): Plugin {
  let root = process.cwd();
  let e2e = false;
  // URL path (no leading slash) → file on disk.
  const assets = new Map<string, string>();

  const collect = (): void => {
    assets.clear();
    const ortDir = resolve(root, 'node_modules/onnxruntime-web/dist');
    for (const name of ORT_FILES) assets.set(`ort/${name}`, join(ortDir, name));
    // wllama's one wasm build (single- and multi-thread), fetched only when a CPU model loads.
    assets.set(
      'wllama/wllama.wasm',
      resolve(root, 'node_modules/@wllama/wllama/esm/wasm/wllama.wasm'),
    );
    if (e2e) {
      const models = resolve(root, 'tests/fixtures/models');
      for (const file of listFiles(models)) {
        assets.set(`models/${relative(models, file).split(sep).join('/')}`, file);
      }
    }
  };

  const middleware: Connect.NextHandleFunction = (req, res, next) => {
    const path = decodeURIComponent((req.url ?? '').split('?')[0] ?? '').replace(/^\/+/, '');
    const file = assets.get(path);
    if (!file) return next();
    res.setHeader('Content-Type', contentType(file));
    res.end(readFileSync(file));
  };

  return {
    name: 'loci-assets',
    config(config, env) {
      e2e = env.mode === 'e2e';
      root = config.root ? resolve(config.root) : process.cwd();
      if (!e2e || env.command !== 'build') return;
      return {
        build: {
          rollupOptions: {
            input: {
              main: resolve(root, 'index.html'),
              engines: resolve(root, 'tests/e2e/engines-harness/index.html'),
            },
          },
        },
      };
    },
    configResolved(config) {
      root = config.root;
      e2e = config.mode === 'e2e';
      collect();
    },
    configureServer(server) {
      server.middlewares.use(middleware);
    },
    configurePreviewServer(server) {
      // The build already contains the files; this covers a preview of a build made without them.
      server.middlewares.use(middleware);
    },
    generateBundle(_options, bundle) {
      // Rule E18: the scripted test engine must never ship in a production bundle.
      if (!e2e) {
        // Worker bundles arrive here as assets, so both kinds of output are scanned.
        for (const output of Object.values(bundle)) {
          const text =
            output.type === 'chunk'
              ? output.code
              : output.fileName.endsWith('.js') || output.fileName.endsWith('.mjs')
                ? typeof output.source === 'string'
                  ? output.source
                  : new TextDecoder().decode(output.source)
                : '';
          if (text.includes(SCRIPTED_ENGINE_MARKER)) {
            this.error(
              `The scripted test engine leaked into the production file ${output.fileName}.`,
            );
          }
        }
      }
      // Bundle rule (issue 18, 13): onnxruntime-web's own `new URL('….wasm', import.meta.url)`
      // makes Vite emit a hashed 27 MB copy of the wasm that nothing loads — the embedder points
      // `wasmPaths` at the self-hosted `/ort/` copy. One copy of each wasm ships.
      for (const [key, output] of Object.entries(bundle)) {
        if (/^assets\/ort-wasm-[^/]*\.wasm$/.test(output.fileName)) delete bundle[key];
      }
      for (const [fileName, file] of assets) {
        this.emitFile({ type: 'asset', fileName, source: readFileSync(file) });
      }
    },
  };
}
