import { fileURLToPath } from 'node:url';

/** Absolute path of a committed document fixture (tests and benchmarks only). */
export function fixturePath(name: string): string {
  return fileURLToPath(new URL(`../../../tests/fixtures/documents/${name}`, import.meta.url));
}
