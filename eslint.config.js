import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import svelteConfig from './svelte.config.js';

/** Globals that tie code to a browser or to time; src/core reaches these only through ports. */
const impureGlobals = [
  'window',
  'document',
  'navigator',
  'indexedDB',
  'IDBKeyRange',
  'localStorage',
  'sessionStorage',
  'Worker',
  'SharedWorker',
  'BroadcastChannel',
  'fetch',
  'XMLHttpRequest',
  'WebSocket',
  'setTimeout',
  'setInterval',
  'clearTimeout',
  'clearInterval',
  'requestAnimationFrame',
  'requestIdleCallback',
  'queueMicrotask',
  'self',
  'caches',
  'crypto',
  'performance',
].map((name) => ({
  name,
  message: 'src/core is pure: reach the platform through a port in src/core/ports.',
}));

/** The UI's one door to storage and engines is the composition root (ADR 0146). */
const UI_NO_ADAPTERS = {
  group: ['**/adapters/**', '**/main'],
  message:
    'src/ui imports no adapter: take it from src/ui/services.ts (src/main.ts builds it) or a port in src/core/ports.',
};
/** Live queries come from the store's `watch` (the LiveQueries port), never Dexie itself. */
const UI_NO_DEXIE = {
  name: 'dexie',
  message:
    "src/ui reaches storage through ports: watch a query with the store's `watch` (core/ports/live-queries), not Dexie.",
};

/**
 * A folder of pure code (no platform globals, no packages, nothing from the shells), its tests
 * aside; `more` adds patterns of its own.
 */
function pureFolder(folder, { packages, shells, more = [] }) {
  return {
    files: [`${folder}/**/*.ts`],
    ignores: [`${folder}/**/*.test.ts`],
    rules: {
      'no-restricted-globals': ['error', ...impureGlobals],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^[^.]', message: packages },
            {
              group: ['**/adapters/**', '**/ui/**', '**/workers/**', '**/rpc/**', '**/main'],
              message: shells,
            },
            ...more,
          ],
        },
      ],
    },
  };
}

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'dist-e2e/',
      'dist-e2e-*/',
      'test-artifacts/',
      'test-results/',
      'playwright-report/',
      'public/',
      'bench/results/',
      'tests/fixtures/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      'no-empty': ['error', { allowEmptyCatch: false }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: {
      parserOptions: {
        projectService: true,
        extraFileExtensions: ['.svelte'],
        parser: tseslint.parser,
        svelteConfig,
      },
    },
  },
  pureFolder('src/core', {
    packages: 'src/core imports only src/core (no packages): add a port instead.',
    shells: 'src/core imports only src/core: the shells depend on the core, not back.',
    more: [
      {
        group: ['**/eval/**', '**/eval'],
        message:
          'src/core imports nothing from the memory evaluation (src/eval): the eval depends on the core, not back.',
      },
    ],
  }),
  // The memory evaluation (replay, scoring, the turn-cost meter) is pure like the core and stands
  // on it; the bench, the tests and the in-app Memory check import it (issue 38, ADR 0207).
  pureFolder('src/eval', {
    packages: 'src/eval imports only src/core and itself (no packages).',
    shells: 'src/eval stands on src/core only; the shells import it, not back.',
  }),
  {
    // The worker protocol is shared by both ends; it depends on nothing that implements it (W8).
    files: ['src/rpc/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/adapters/**', '**/ui/**', '**/workers/**', '**/main'],
              message:
                'src/rpc imports no adapter, UI or worker: move shared types to src/rpc or src/core/ports.',
            },
          ],
        },
      ],
    },
  },
  {
    // The UI reaches storage, engines and the browser's services only through what the
    // composition root (src/main.ts) hands it: ports, services and rune state (ADR 0146).
    files: ['src/ui/**/*.ts', 'src/ui/**/*.svelte'],
    ignores: ['src/ui/**/*.test.ts', 'src/ui/state/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [UI_NO_DEXIE], patterns: [UI_NO_ADAPTERS] }],
    },
  },
  {
    // Rune state sits below the components and screens that show it: it imports none of them,
    // so the two never form a loop (issue 38 item 3). (A later block replaces a rule's whole
    // setting for the files it matches, so the adapters pattern is repeated here.)
    files: ['src/ui/state/**/*.ts'],
    ignores: ['src/ui/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [UI_NO_DEXIE],
          patterns: [
            UI_NO_ADAPTERS,
            {
              group: ['**/components/**', '**/screens/**'],
              message:
                'src/ui/state imports no component or screen: move the shared helper into src/ui/state (components may import state, not the other way).',
            },
          ],
        },
      ],
    },
  },
  {
    // Adapters implement ports; they never reach back into the UI that uses them (ADR 0146).
    files: ['src/adapters/**/*.ts'],
    ignores: ['src/adapters/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/ui/**', '**/main'],
              message:
                'src/adapters imports nothing from src/ui: describe what it needs as an interface (a port) instead.',
            },
          ],
        },
      ],
    },
  },
);
