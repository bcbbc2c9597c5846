import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(__dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|svelte)$/.test(name) && !name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('the e2e build module (ADR 0193)', () => {
  it('is imported only as a type, or by the guarded dynamic import in src/main.ts', () => {
    const valueImports = sources(SRC).filter((path) =>
      /^import\s+(?!type\b)[^;]*from\s+['"][./]*(app\/)?e2e-build['"]/m.test(
        readFileSync(path, 'utf8'),
      ),
    );
    expect(valueImports).toEqual([]);
    const main = readFileSync(join(SRC, 'main.ts'), 'utf8');
    const dynamic = [...main.matchAll(/import\(\s*['"]\.\/app\/e2e-build['"]\s*\)/g)];
    expect(dynamic).toHaveLength(1);
    // The one import sits behind the compile-time flag, so the production build drops it.
    expect(main).toMatch(/__LOCI_E2E__\s*\?\s*\(await import\('\.\/app\/e2e-build'\)\)/);
  });
});
