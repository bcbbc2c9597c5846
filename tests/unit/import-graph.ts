/**
 * The project's import graph, read the way the bundler resolves it (issue 38, ADR 0207): every
 * relative import and re-export of a `.ts` file or a Svelte component's `<script>`, type-only
 * ones included (a type loop is still a loop a reader has to untangle), found by TypeScript's own
 * pre-processor so comments and strings never count. Test files are left out: a test may import
 * anything it tests.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export type ImportGraph = Map<string, Set<string>>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    const source = /\.(ts|svelte)$/.test(entry.name) && !/\.(test|d)\.ts$/.test(entry.name);
    return source ? [path] : [];
  });
}

function scriptOf(path: string): string {
  const text = readFileSync(path, 'utf8');
  if (!path.endsWith('.svelte')) return text;
  return [...text.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n');
}

/** The file a relative specifier names, as Vite resolves it here (no extension, `.svelte.ts`). */
function resolveSpecifier(from: string, specifier: string): string | null {
  const base = resolve(dirname(from), specifier.split('?')[0]!);
  for (const candidate of [base, `${base}.ts`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** Imports between the source files under `root`, keyed by paths relative to `root`. */
export function importGraph(root: string): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of sourceFiles(root)) {
    const targets = new Set<string>();
    const { importedFiles } = ts.preProcessFile(scriptOf(file), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolveSpecifier(file, fileName);
      if (target) targets.add(relative(root, target));
    }
    graph.set(relative(root, file), targets);
  }
  return graph;
}

/** The graph of folders: `a → b` when a file of `a` imports one of `b` (self-edges left out). */
export function folderGraph(
  graph: ImportGraph,
  folderOf: (file: string) => string | null,
): ImportGraph {
  const folders: ImportGraph = new Map();
  for (const [file, targets] of graph) {
    const from = folderOf(file);
    if (from === null) continue;
    const edges = folders.get(from) ?? new Set<string>();
    folders.set(from, edges);
    for (const target of targets) {
      const to = folderOf(target);
      if (to !== null && to !== from) edges.add(to);
    }
  }
  return folders;
}

/** Every cycle's members, one list per strongly connected component of two or more nodes. */
export function cycles(graph: ImportGraph): string[][] {
  // Tarjan's algorithm, iterative over each node's edges so a deep graph cannot overflow.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (start: string): void => {
    const work: Array<{ node: string; edges: string[]; at: number }> = [];
    const enter = (node: string) => {
      index.set(node, next);
      low.set(node, next);
      next += 1;
      stack.push(node);
      onStack.add(node);
      work.push({ node, edges: [...(graph.get(node) ?? [])], at: 0 });
    };
    enter(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      if (frame.at < frame.edges.length) {
        const to = frame.edges[frame.at++]!;
        if (!index.has(to)) enter(to);
        else if (onStack.has(to))
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}
