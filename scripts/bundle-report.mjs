#!/usr/bin/env node
/**
 * What a build makes a device download (issue 18, point 13; rule U195). Reads a built `dist/`
 * (or the folder given as the first argument) and prints:
 * - first load: the JS and CSS that `/` fetches before anything is imported on demand — the
 *   scripts, stylesheets and modulepreloads in `index.html`, plus every file those scripts import
 *   statically (followed recursively; dynamic `import()` and workers are not first-load), with
 *   raw and gzip sizes;
 * - precache: the entries in `sw.js`'s precache list, their raw total, and any URL listed twice;
 * - engine chunks (web-llm, wllama) and whether the precache holds them;
 * - every file over 1 MB, and how many copies of ONNX Runtime's wasm there are.
 * `--json` prints the same figures as JSON. Usage: `npm run build && node scripts/bundle-report.mjs`.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { firstLoadFiles, isJs } from './first-load.mjs';

const args = process.argv.slice(2);
const json = args.includes('--json');
const out = args.find((a) => !a.startsWith('--')) ?? 'dist';

if (!existsSync(join(out, 'index.html'))) {
  console.error(`No build in ${out}/: run \`npm run build\` first.`);
  process.exit(1);
}

/** @param {string} dir @returns {string[]} paths relative to `out`, with forward slashes */
function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [relative(out, path).split('\\').join('/')];
  });
}

const all = files(out);
const size = (/** @type {string} */ file) => statSync(join(out, file)).size;

// --- First load (scripts/first-load.mjs) ---------------------------------------------------
const firstLoadRows = firstLoadFiles(out);
const sum = (/** @type {{raw:number,gzip:number}[]} */ rows, /** @type {'raw'|'gzip'} */ k) =>
  rows.reduce((n, r) => n + r[k], 0);
const isCss = (/** @type {string} */ f) => f.endsWith('.css');

// --- Precache ------------------------------------------------------------------------------
const swPath = join(out, 'sw.js');
const sw = existsSync(swPath) ? readFileSync(swPath, 'utf8') : '';
const precache = [...sw.matchAll(/url:"([^"]+)"/g)].map((m) => m[1] ?? '');
const duplicates = [...new Set(precache.filter((u, i) => precache.indexOf(u) !== i))];
const precacheRaw = precache.reduce((n, u) => n + (existsSync(join(out, u)) ? size(u) : 0), 0);

// --- Engine chunks, big files, ORT wasm copies ---------------------------------------------
const engineChunks = all.filter((f) => /^assets\/(webllm|wllama)-lib-[^/]*\.js$/.test(f));
const big = all.filter((f) => size(f) > 1_000_000).map((file) => ({ file, raw: size(file) }));
const ortWasm = all.filter((f) => /(^|\/)ort-wasm[^/]*\.wasm$/.test(f));

const report = {
  out,
  firstLoad: {
    files: firstLoadRows,
    jsGzip: sum(
      firstLoadRows.filter((r) => isJs(r.file)),
      'gzip',
    ),
    cssGzip: sum(
      firstLoadRows.filter((r) => isCss(r.file)),
      'gzip',
    ),
    jsRaw: sum(
      firstLoadRows.filter((r) => isJs(r.file)),
      'raw',
    ),
  },
  precache: {
    entries: precache.length,
    unique: new Set(precache).size,
    raw: precacheRaw,
    duplicates,
  },
  engineChunks: engineChunks.map((file) => ({
    file,
    raw: size(file),
    precached: precache.includes(file),
  })),
  big,
  ortWasm: ortWasm.map((file) => ({ file, raw: size(file) })),
};

if (json) {
  console.log(JSON.stringify(report, null, 2));
} else {
  // kB = 1,000 bytes, as Vite's build output reports them (gzip at zlib's default level).
  const kb = (/** @type {number} */ n) =>
    `${(n / 1000).toLocaleString('en', { maximumFractionDigits: 1 })} kB`;
  const mb = (/** @type {number} */ n) => `${(n / 1e6).toFixed(1)} MB`;
  console.log(`Bundle report for ${out}/\n`);
  console.log('First load of / (index.html + static imports):');
  for (const r of firstLoadRows) console.log(`  ${r.file}  ${kb(r.raw)} raw, ${kb(r.gzip)} gzip`);
  console.log(
    `  JS total: ${kb(report.firstLoad.jsRaw)} raw, ${kb(report.firstLoad.jsGzip)} gzip; CSS ${kb(report.firstLoad.cssGzip)} gzip\n`,
  );
  console.log(
    `Precache: ${precache.length} entries (${report.precache.unique} unique), ${kb(precacheRaw)} raw`,
  );
  console.log(`  listed twice: ${duplicates.length === 0 ? 'none' : duplicates.join(', ')}`);
  for (const c of report.engineChunks)
    console.log(
      `  engine chunk ${c.file} (${mb(c.raw)}): ${c.precached ? 'PRECACHED' : 'not precached'}`,
    );
  console.log(`\nFiles over 1 MB:`);
  for (const b of big) console.log(`  ${b.file}  ${mb(b.raw)}`);
  console.log(`\nONNX Runtime wasm copies: ${ortWasm.length} (${ortWasm.join(', ')})`);
}
