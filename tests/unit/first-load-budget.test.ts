/**
 * scripts/first-load.mjs and scripts/check-first-load.mjs: the first-load budget (P33, ADR 0196)
 * measured on small synthetic builds — what counts as first load, and that the check fails above
 * the budget and passes at or below it.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  checkFirstLoad,
  FIRST_LOAD_BUDGET_BYTES,
  firstLoadFiles,
} from '../../scripts/first-load.mjs';

const SCRIPT = resolve('scripts/check-first-load.mjs');
let out = '';

/** A build folder holding `files` (path → text). */
function build(files: Record<string, string>): string {
  out = mkdtempSync(join(tmpdir(), 'loci-first-load-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(out, path)), { recursive: true });
    writeFileSync(join(out, path), text);
  }
  return out;
}

/** A string literal of random base64 that gzip cannot shrink much: about 0.76 gzip byte per char. */
const noise = (chars: number) => `"${randomBytes(chars).toString('base64').slice(0, chars)}"`;

const INDEX = `<!doctype html><html><head>
<script type="module" crossorigin src="/assets/index-a.js"></script>
<link rel="modulepreload" crossorigin href="/assets/vendor-b.js">
<link rel="stylesheet" crossorigin href="/assets/index-c.css">
<link rel="icon" href="/favicon.svg">
</head><body><div id="app"></div></body></html>`;

afterEach(() => rmSync(out, { recursive: true, force: true }));

describe('first load (P33)', () => {
  it('P33: counts index.html scripts, modulepreloads and their static imports, not import() or workers', () => {
    const dir = build({
      'index.html': INDEX,
      'assets/index-a.js': `import{a as t}from"./vendor-b.js";import"./shared-d.js";const w=new Worker(new URL("./x.worker-e.js",import.meta.url));const s=()=>import("./Screen-f.js");export{t,w,s};`,
      'assets/vendor-b.js': `export * from "./deep-g.js";export const a=1;`,
      'assets/shared-d.js': 'console.log(1);',
      'assets/deep-g.js': 'export const g=2;',
      'assets/x.worker-e.js': noise(50_000),
      'assets/Screen-f.js': noise(50_000),
      'assets/index-c.css': 'body{margin:0}',
    });
    const files = firstLoadFiles(dir).map((f) => f.file);
    expect(files.sort()).toEqual([
      'assets/deep-g.js',
      'assets/index-a.js',
      'assets/index-c.css',
      'assets/shared-d.js',
      'assets/vendor-b.js',
    ]);
  });

  it('P33: the check fails above the budget and names the figure, the budget and the biggest chunks', () => {
    const dir = build({
      'index.html': INDEX,
      'assets/index-a.js': `import"./vendor-b.js";export const big=${noise(200_000)};`,
      'assets/vendor-b.js': `export const more=${noise(80_000)};`,
      'assets/index-c.css': 'body{margin:0}',
    });
    const result = checkFirstLoad(dir);
    expect(result.jsGzip).toBeGreaterThan(FIRST_LOAD_BUDGET_BYTES);
    expect(result.ok).toBe(false);
    expect(result.files.map((f) => f.file)).toEqual(['assets/index-a.js', 'assets/vendor-b.js']);
    expect(result.message).toMatch(
      /^First-load JavaScript is [\d.,]+ kB gzip, over the 200 kB budget by [\d.,]+ kB \(biggest: assets\/index-a\.js [\d.,]+ kB, assets\/vendor-b\.js [\d.,]+ kB\)/,
    );

    const cli = spawnSync(process.execPath, [SCRIPT, dir], { encoding: 'utf8' });
    expect(cli.status).toBe(1);
    expect(cli.stderr.trim()).toBe(result.message);
  });

  it('P33: the check passes at or below the budget; CSS and lazily loaded chunks do not count', () => {
    const dir = build({
      'index.html': INDEX,
      'assets/index-a.js': `import"./vendor-b.js";const s=()=>import("./Screen-f.js");export const x=${noise(100_000)};`,
      'assets/vendor-b.js': `export const more=${noise(20_000)};`,
      'assets/Screen-f.js': noise(400_000),
      'assets/index-c.css': `body{content:${noise(300_000)}}`,
    });
    const result = checkFirstLoad(dir);
    expect(result.jsGzip).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_BYTES);
    expect(result.ok).toBe(true);
    // The same build against a budget one byte under its figure fails.
    expect(checkFirstLoad(dir, result.jsGzip).ok).toBe(true);
    expect(checkFirstLoad(dir, result.jsGzip - 1).ok).toBe(false);

    const cli = spawnSync(process.execPath, [SCRIPT, dir], { encoding: 'utf8' });
    expect(cli.status).toBe(0);
    expect(cli.stdout).toContain('within the 200 kB budget');
  });

  it('P33: a folder with no build fails with a sentence that says how to make one', () => {
    const dir = build({ 'readme.txt': 'no build here' });
    const cli = spawnSync(process.execPath, [SCRIPT, dir], { encoding: 'utf8' });
    expect(cli.status).toBe(1);
    expect(cli.stderr).toContain('run `npm run build` first');
  });
});
