/**
 * What the first visit to `/` makes a device download before anything is imported on demand
 * (ADR 0109, ADR 0196, P33): the scripts, stylesheets and modulepreloads in a build's
 * `index.html`, plus every file those scripts import statically, followed recursively. Dynamic
 * `import()`, workers and wasm are not first load. Sizes are raw and gzip at zlib's default level
 * (6), in bytes; kB in messages are 1,000 bytes, as Vite reports them.
 *
 * Used by `scripts/bundle-report.mjs` (the figures) and `scripts/check-first-load.mjs` (the
 * budget the test command enforces).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The first-load JavaScript budget, gzip bytes (issue 36 item 5, P33). */
export const FIRST_LOAD_BUDGET_BYTES = 200_000;

/**
 * Static imports in built code: `import … from "./x.js"`, `import "./x.js"`,
 * `export … from "./x.js"`, minified or not (`import{a as b}from"./x.js"`). A dynamic
 * `import("./x.js")` has a parenthesis before its string and does not match.
 */
const STATIC_IMPORT =
  /(?:^|[;}\s])(?:import|export)\s*(?:[^"'()]*?from\s*)?["'](\.{1,2}\/[^"']+)["']/g;

/** @typedef {{ file: string, raw: number, gzip: number }} SizedFile */

/** @param {string} file */
export const isJs = (file) => /\.m?js$/.test(file);

/**
 * The files the first load of `/` fetches from the build in `out`, in the order found, each with
 * its raw and gzip size. Throws when `out` holds no `index.html`.
 * @param {string} out
 * @returns {SizedFile[]}
 */
export function firstLoadFiles(out) {
  const htmlPath = join(out, 'index.html');
  if (!existsSync(htmlPath)) throw new Error(`No build in ${out}/: run \`npm run build\` first.`);
  const html = readFileSync(htmlPath, 'utf8');
  /** @type {string[]} */
  const queue = [];
  for (const tag of html.matchAll(/<(script|link)\b[^>]*>/g)) {
    const t = tag[0];
    const url = /\b(?:src|href)="([^"]+)"/.exec(t)?.[1];
    if (!url || /^[a-z]+:/i.test(url)) continue;
    const isScript = tag[1] === 'script';
    const isStyle = /rel="stylesheet"/.test(t);
    const isPreload = /rel="modulepreload"/.test(t);
    if (isScript || isStyle || isPreload) queue.push(url.replace(/^\.?\//, ''));
  }
  /** @type {Set<string>} */
  const found = new Set();
  while (queue.length > 0) {
    const file = /** @type {string} */ (queue.shift());
    if (found.has(file) || !existsSync(join(out, file))) continue;
    found.add(file);
    if (!isJs(file)) continue;
    const code = readFileSync(join(out, file), 'utf8');
    for (const m of code.matchAll(STATIC_IMPORT))
      queue.push(posix.normalize(posix.join(posix.dirname(file), m[1] ?? '')));
  }
  return [...found].map((file) => {
    const bytes = readFileSync(join(out, file));
    return { file, raw: bytes.length, gzip: gzipSync(bytes).length };
  });
}

/** @param {number} bytes */
export const kB = (bytes) =>
  `${(bytes / 1000).toLocaleString('en', { maximumFractionDigits: 1 })} kB`;

/**
 * Checks the first-load JavaScript of the build in `out` against `budget` (gzip bytes).
 * `message` is one sentence: the figure, the budget and the biggest chunks.
 * @param {string} out
 * @param {number} [budget]
 * @returns {{ ok: boolean, jsGzip: number, budget: number, files: SizedFile[], message: string }}
 */
export function checkFirstLoad(out, budget = FIRST_LOAD_BUDGET_BYTES) {
  const files = firstLoadFiles(out)
    .filter((f) => isJs(f.file))
    .sort((a, b) => b.gzip - a.gzip);
  const jsGzip = files.reduce((n, f) => n + f.gzip, 0);
  const ok = jsGzip <= budget;
  const biggest = files
    .slice(0, 3)
    .map((f) => `${f.file} ${kB(f.gzip)}`)
    .join(', ');
  const message = ok
    ? `First-load JavaScript is ${kB(jsGzip)} gzip, within the ${kB(budget)} budget (biggest: ${biggest}).`
    : `First-load JavaScript is ${kB(jsGzip)} gzip, over the ${kB(budget)} budget by ${kB(jsGzip - budget)} (biggest: ${biggest}); load what a first visit does not need with import() (ADR 0196).`;
  return { ok, jsGzip, budget, files, message };
}
