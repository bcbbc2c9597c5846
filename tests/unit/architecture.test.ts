import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { cycles, folderGraph, importGraph } from './import-graph';

// The pure-core rule is enforced by ESLint (eslint.config.js); these tests prove the rule bites.
const eslint = new ESLint({ cwd: process.cwd() });

async function coreViolations(code: string, file = 'src/core/agent/example.ts'): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: file });
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
}

describe('architecture: src/core stays pure', () => {
  it('rejects package imports (Dexie, web-llm, transformers.js, Svelte, any npm package)', async () => {
    for (const pkg of [
      'dexie',
      '@mlc-ai/web-llm',
      '@huggingface/transformers',
      'svelte',
      'minisearch',
    ]) {
      const messages = await coreViolations(`import x from '${pkg}';\nexport const y = x;\n`);
      expect(messages.join('\n'), pkg).toMatch(/no-restricted-imports/);
    }
  });

  it('rejects imports that reach out of src/core into the shells', async () => {
    const messages = await coreViolations(
      `import { x } from '../../adapters/storage/dexie/db';\nexport const y = x;\n`,
    );
    expect(messages.join('\n')).toMatch(/no-restricted-imports/);
  });

  it('rejects DOM, IndexedDB, worker, fetch and timer globals', async () => {
    for (const global of [
      'window',
      'document',
      'indexedDB',
      'fetch',
      'setTimeout',
      'Worker',
      'navigator',
    ]) {
      const messages = await coreViolations(`export const y = () => ${global};\n`);
      expect(messages.join('\n'), global).toMatch(/no-restricted-globals/);
    }
  });

  it('allows relative imports inside core, and the same code outside core', async () => {
    expect(
      await coreViolations(`import { AppError } from '../errors';\nexport const e = AppError;\n`),
    ).toEqual([]);
    expect(
      await coreViolations(
        `import Dexie from 'dexie';\nexport const d = () => [Dexie, window];\n`,
        'src/adapters/x.ts',
      ),
    ).toEqual([]);
  });
});

describe('architecture: src/rpc depends on no implementation (W8)', () => {
  it('W8: rejects imports from adapters, UI and workers in src/rpc, and allows core ports', async () => {
    for (const from of [
      '../adapters/embed/embed-models',
      '../ui/services',
      '../workers/llm-handlers',
    ]) {
      const messages = await coreViolations(
        `import type { X } from '${from}';\nexport type Y = X;\n`,
        'src/rpc/example.ts',
      );
      expect(messages.join('\n'), from).toMatch(/no-restricted-imports/);
    }
    expect(
      await coreViolations(
        `import type { Tokens } from '../core/units';\nexport type T = Tokens;\n`,
        'src/rpc/example.ts',
      ),
    ).toEqual([]);
  });

  it('W8: the real src/rpc passes the rule', async () => {
    const results = await eslint.lintFiles(['src/rpc/**/*.ts']);
    const problems = results.flatMap((r) =>
      r.messages
        .filter((m) => m.ruleId === 'no-restricted-imports')
        .map((m) => `${r.filePath}: ${m.message}`),
    );
    expect(problems).toEqual([]);
  });
});

describe('architecture: the UI and the adapters meet only in src/main.ts (U170)', () => {
  it('U170: rejects adapter imports in src/ui, in TypeScript and in Svelte components', async () => {
    for (const [from, file] of [
      ['../../adapters/storage/device-settings', 'src/ui/state/example.ts'],
      ['../../../adapters/backup/export-backup', 'src/ui/components/settings/example.ts'],
    ] as const) {
      const messages = await coreViolations(
        `import type { X } from '${from}';\nexport type Y = X;\n`,
        file,
      );
      expect(messages.join('\n'), file).toMatch(
        /no-restricted-imports.*src\/ui imports no adapter/,
      );
    }
    const svelte = await coreViolations(
      `<script lang="ts">\n  import { EMBED_MODELS } from '../../adapters/embed/embed-models';\n  console.log(EMBED_MODELS);\n</script>\n`,
      'src/ui/screens/PendingScreen.svelte',
    );
    expect(svelte.join('\n')).toMatch(/no-restricted-imports.*src\/ui imports no adapter/);
    expect(
      await coreViolations(
        `import type { DeviceSettings } from '../../core/ports/device-settings';\nexport type D = DeviceSettings;\n`,
        'src/ui/state/example.ts',
      ),
    ).toEqual([]);
  });

  it('U170: rejects UI imports in src/adapters', async () => {
    const messages = await coreViolations(
      `import type { PwaState } from '../../ui/state/pwa.svelte';\nexport type P = PwaState;\n`,
      'src/adapters/pwa/example.ts',
    );
    expect(messages.join('\n')).toMatch(/no-restricted-imports.*src\/adapters imports nothing/);
  });

  it('U170: the real src/ui and src/adapters pass both rules', async () => {
    // Only the import rule, without type information: the boundary needs no types, and the
    // type-aware Svelte parse of every component takes minutes on a shared machine.
    const importsOnly = new ESLint({
      cwd: process.cwd(),
      ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-imports',
      overrideConfig: [
        {
          files: ['**/*.svelte', '**/*.svelte.ts'],
          languageOptions: { parserOptions: { projectService: false } },
        },
      ],
    });
    const results = await importsOnly.lintFiles([
      'src/ui/**/*.ts',
      'src/ui/**/*.svelte',
      'src/adapters/**/*.ts',
    ]);
    const problems = results.flatMap((r) =>
      r.messages
        .filter((m) => m.ruleId === 'no-restricted-imports')
        .map((m) => `${r.filePath}: ${m.message}`),
    );
    expect(problems).toEqual([]);
  }, 120_000);
});

describe('architecture: no import loops, and the eval stands beside the core (issue 38 item 2)', () => {
  it('finds a loop when there is one (the check can fail)', () => {
    const root = mkdtempSync(join(tmpdir(), 'loci-graph-'));
    mkdirSync(join(root, 'a'));
    writeFileSync(
      join(root, 'a', 'one.ts'),
      `import type { T } from './two';\nexport type U = T;\n`,
    );
    writeFileSync(join(root, 'a', 'two.ts'), `export { type U as T } from './one';\n`);
    writeFileSync(join(root, 'b.svelte'), `<script lang="ts">\n  import './a/one';\n</script>\n`);
    const graph = importGraph(root);
    expect(graph.get('b.svelte')).toEqual(new Set(['a/one.ts']));
    expect(cycles(graph)).toEqual([['a/one.ts', 'a/two.ts']]);
  });

  it('src has no import cycle between files, type-only imports included', () => {
    expect(cycles(importGraph('src'))).toEqual([]);
  });

  it("src/core's folders form no loop: each folder of the core stands on the ones below it", () => {
    const coreFolder = (file: string): string | null => {
      const parts = file.split('/');
      return parts[0] === 'core' && parts.length > 2 ? parts[1]! : null;
    };
    expect(cycles(folderGraph(importGraph('src'), coreFolder))).toEqual([]);
  });

  it('rejects an import of the memory evaluation from src/core, and allows it from the UI', async () => {
    const messages = await coreViolations(
      `import { evaluateLive } from '../../eval/evaluate-live';\nexport const e = evaluateLive;\n`,
      'src/core/context/example.ts',
    );
    expect(messages.join('\n')).toMatch(/no-restricted-imports.*memory evaluation/);
    const evalToAdapters = await coreViolations(
      `import { x } from '../adapters/storage/dexie/db';\nexport const y = x;\n`,
      'src/eval/example.ts',
    );
    expect(evalToAdapters.join('\n')).toMatch(/no-restricted-imports.*stands on src\/core only/);
    expect(
      await coreViolations(
        `import { evaluateLive } from '../../eval/evaluate-live';\nexport const e = evaluateLive;\n`,
        'src/ui/state/example.ts',
      ),
    ).toEqual([]);
  });
});
