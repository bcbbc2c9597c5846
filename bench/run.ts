/**
 * `npm run bench -- --out <file.json> [--quick] [--only <section,…>]`: runs every section module
 * in bench/sections/*.ts (each exports `run: BenchSection`), writes
 * `{ generatedAt, machine, options, sections, figures }` as JSON and prints a table. Fields are
 * documented in bench/README.md.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { printTable } from './lib/print-table';
import type { BenchFigure, BenchSection } from './types';

interface Args {
  out: string | null;
  quick: boolean;
  only: string[] | null;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { out: null, quick: false, only: null };
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i];
    if (a === '--quick') args.quick = true;
    else if (a === '--out') args.out = argv[++i] ?? null;
    else if (a === '--only') args.only = (argv[++i] ?? '').split(',').filter(Boolean);
    else
      throw new Error(
        `Unknown argument ${a}. Usage: npm run bench -- --out <file.json> [--quick] [--only a,b]`,
      );
  }
  return args;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const loadAtStart = os.loadavg().map((x) => Math.round(x * 100) / 100);
  const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'sections');
  const files = (await readdir(dir))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .sort();
  const figures: BenchFigure[] = [];
  const sections: Array<{ name: string; ms: number; figures: number; error?: string }> = [];
  for (const file of files) {
    const name = file.replace(/\.ts$/, '');
    if (args.only && !args.only.includes(name)) continue;
    const t0 = performance.now();
    process.stderr.write(`bench: ${name}…\n`);
    try {
      const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as {
        run?: BenchSection;
      };
      if (typeof mod.run !== 'function') throw new Error(`bench/sections/${file} exports no run()`);
      const got = await mod.run({ quick: args.quick });
      figures.push(...got);
      sections.push({ name, ms: Math.round(performance.now() - t0), figures: got.length });
    } catch (error) {
      // One broken section must not hide the others' figures; it is reported in the JSON and exit code.
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      process.stderr.write(`bench: section ${name} failed: ${message}\n`);
      sections.push({ name, ms: Math.round(performance.now() - t0), figures: 0, error: message });
    }
  }
  const report = {
    generatedAt: new Date().toISOString(),
    machine: {
      node: process.version,
      platform: `${os.platform()} ${os.release()} ${os.arch()}`,
      cpu: os.cpus()[0]?.model ?? 'unknown',
      cores: os.cpus().length,
      memoryGB: Math.round(os.totalmem() / 2 ** 30),
      // Load on a shared machine explains noisy absolute times (the ratios hold up better).
      loadAverage: { start: loadAtStart, end: os.loadavg().map((x) => Math.round(x * 100) / 100) },
    },
    options: { quick: args.quick, only: args.only },
    sections,
    figures,
  };
  if (args.out) {
    await mkdir(path.dirname(path.resolve(args.out)), { recursive: true });
    await writeFile(args.out, `${JSON.stringify(report, null, 2)}\n`);
  }
  process.stdout.write(`${printTable(figures)}\n`);
  if (args.out) process.stdout.write(`\nwrote ${args.out}\n`);
  if (sections.some((s) => s.error)) process.exitCode = 1;
}

await main();
