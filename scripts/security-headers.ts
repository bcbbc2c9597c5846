/**
 * The one place Loci's HTTP response headers are defined (rules X70–X75, ADR 0130). `npm start`
 * and the e2e server (`vite preview`) send them through {@link securityHeadersPlugin}; the build
 * writes the same rules as `dist/_headers` for static hosts, and {@link nginxSnippet} prints them
 * for nginx (the README carries that text; a unit test keeps the two equal).
 *
 * Each script that runs as its own global — the page, each worker, the service worker — takes
 * its Content-Security-Policy from its own response, so each kind of script gets a policy of
 * its own, no wider than what it does.
 */
import {
  LOOPBACK_SOURCES,
  parseServerSources,
} from '../src/adapters/llm/openai-endpoint/server-sources';

/**
 * The hosts the engines download models from, and nothing else (X60): web-llm fetches weights
 * from Hugging Face and its compiled model libraries from GitHub's raw host; transformers.js
 * fetches from Hugging Face, whose files redirect to its CDNs (`cdn-lfs*.huggingface.co`,
 * `*.hf.co`).
 */
export const MODEL_HOSTS = [
  'https://huggingface.co',
  'https://*.huggingface.co',
  'https://*.hf.co',
  'https://raw.githubusercontent.com',
];
/**
 * The model servers the LLM worker may call (ADR 0120): loopback on any port, plus the origins
 * listed in `LOCI_MODEL_SERVERS` when the app is built. The policy is per build, so a server
 * elsewhere must be named by whoever builds and hosts Loci.
 */
export const MODEL_SERVERS = [
  ...LOOPBACK_SOURCES,
  ...parseServerSources(process.env.LOCI_MODEL_SERVERS),
];
/** Hugging Face and its CDNs: where transformers.js downloads embedding models. */
const HF_HOSTS = MODEL_HOSTS.filter((host) => !host.includes('githubusercontent'));

/** What a response is, for its policy. */
export type ResponseKind =
  'document' | 'llm-worker' | 'embed-worker' | 'worker' | 'service-worker' | 'other';

type Directives = ReadonlyArray<readonly [string, ...string[]]>;

const serialize = (directives: Directives): string => directives.map((d) => d.join(' ')).join('; ');

/**
 * The page's policy. `frame-ancestors` only works as a header (a `<meta>` policy ignores it and
 * Chromium logs an error), so the meta tag leaves it out.
 */
function documentDirectives(delivery: 'header' | 'meta'): Directives {
  return [
    ['default-src', "'self'"],
    // WebAssembly (ONNX Runtime, web-llm's TVM runtime) needs wasm-unsafe-eval; no JS eval.
    ['script-src', "'self'", "'wasm-unsafe-eval'"],
    ['worker-src', "'self'"],
    ['connect-src', "'self'", ...MODEL_HOSTS],
    // Svelte writes some style attributes; styles cannot run code.
    ['style-src', "'self'", "'unsafe-inline'"],
    ['img-src', "'self'", 'data:', 'blob:'],
    ['font-src', "'self'"],
    ['object-src', "'none'"],
    ['base-uri', "'self'"],
    ['form-action', "'self'"],
    ['manifest-src', "'self'"],
    ...(delivery === 'header' ? [['frame-ancestors', "'none'"] as const] : []),
  ];
}

/**
 * A worker's policy: it renders nothing, so everything but scripts, wasm and the fetches it
 * needs is `'none'`. `connect` is where it may fetch from, `scripts` what else it may run.
 */
function workerDirectives(
  connect: readonly string[],
  scripts: readonly string[] = [],
  workers: readonly string[] = [],
): Directives {
  return [
    ['default-src', "'none'"],
    ['script-src', "'self'", "'wasm-unsafe-eval'", ...scripts],
    ['connect-src', "'self'", ...connect],
    ...(workers.length > 0 ? [['worker-src', ...workers] as const] : []),
  ];
}

/** The page's Content-Security-Policy, as a header or as the `<meta>` tag of index.html. */
export function pagePolicy(delivery: 'header' | 'meta' = 'header'): string {
  return serialize(documentDirectives(delivery));
}

/** The Content-Security-Policy of one kind of response, or null when it needs none. */
export function contentSecurityPolicy(kind: ResponseKind): string | null {
  switch (kind) {
    case 'document':
      return pagePolicy('header');
    case 'llm-worker':
      // The LLM worker downloads weights and model libraries itself; wllama starts its
      // llama.cpp worker and its OPFS writer from Blobs of its own bundled code (ADR 0114).
      // It also calls the user's own model server, when one is chosen (ADR 0120).
      return serialize(workerDirectives([...MODEL_HOSTS, ...MODEL_SERVERS], [], ['blob:']));
    case 'embed-worker':
      // transformers.js rewrites ONNX Runtime's wasm loader (served from /ort/) into a blob:
      // module and imports it, so this worker may fetch and run blob: URLs it made itself.
      return serialize(workerDirectives([...HF_HOSTS, 'blob:'], ['blob:']));
    case 'worker':
      return serialize(workerDirectives([]));
    case 'service-worker':
      // Precaching and the share inbox only ever talk to the app's own origin.
      return serialize([
        ['default-src', "'none'"],
        ['script-src', "'self'"],
        ['connect-src', "'self'"],
      ]);
    case 'other':
      return null;
  }
}

/**
 * Which files are which: a URL path pattern (relative to the site root) as a regular expression
 * for the servers here and nginx, and as `_headers` globs for static hosts. The first match wins;
 * the patterns do not overlap, so a static host that applies every matching rule sends one policy.
 */
const KINDS: ReadonlyArray<{ kind: ResponseKind; regex: RegExp; globs: readonly string[] }> = [
  // The app and the e2e harness page; routes are in the hash, so no other path is a page.
  { kind: 'document', regex: /^\/(?:.*\.html)?$/, globs: ['/', '/index.html'] },
  {
    kind: 'llm-worker',
    regex: /^\/assets\/llm\.worker-[^/]+\.js$/,
    globs: ['/assets/llm.worker-*'],
  },
  {
    kind: 'embed-worker',
    regex: /^\/assets\/embed\.worker-[^/]+\.js$/,
    globs: ['/assets/embed.worker-*'],
  },
  { kind: 'worker', regex: /^\/assets\/pdf\.worker[^/]*\.m?js$/, globs: ['/assets/pdf.worker*'] },
  // The document worker (X177) reads the file it is handed and fetches nothing.
  {
    kind: 'worker',
    regex: /^\/assets\/document\.worker-[^/]+\.js$/,
    globs: ['/assets/document.worker-*'],
  },
  // The backup worker (X187) reads, decrypts and checks the file it is handed; it fetches nothing.
  {
    kind: 'worker',
    regex: /^\/assets\/backup\.worker-[^/]+\.js$/,
    globs: ['/assets/backup.worker-*'],
  },
  {
    kind: 'service-worker',
    regex: /^\/(?:sw|share-target-sw|workbox-[^/]+)\.js$/,
    globs: ['/sw.js', '/share-target-sw.js', '/workbox-*'],
  },
];

/** The kind of the response at URL path `path` (query and hash are ignored). */
export function responseKind(path: string): ResponseKind {
  const bare = path.replace(/[?#].*$/, '') || '/';
  return KINDS.find((k) => k.regex.test(bare))?.kind ?? 'other';
}

/** Headers every response carries. */
export const COMMON_HEADERS: Readonly<Record<string, string>> = {
  // Loci sends nothing anywhere, and a model host needs no referrer.
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  // Cross-origin isolation, so SharedArrayBuffer exists and llama.cpp (wllama) runs on several
  // threads (ADR 0114). Model downloads are CORS fetches, which require-corp allows.
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

/** Every security header for the response at URL path `path`. */
export function securityHeaders(path: string): Record<string, string> {
  const policy = contentSecurityPolicy(responseKind(path));
  return { ...COMMON_HEADERS, ...(policy ? { 'Content-Security-Policy': policy } : {}) };
}

/** `dist/_headers` for static hosts that read that file (Cloudflare Pages, Netlify). */
export function staticHeadersFile(): string {
  const lines = [
    '# Loci security headers (generated by scripts/security-headers.ts; ADR 0130).',
    '/*',
    ...Object.entries(COMMON_HEADERS).map(([name, value]) => `  ${name}: ${value}`),
  ];
  for (const { kind, globs } of KINDS) {
    const policy = contentSecurityPolicy(kind);
    for (const glob of globs) lines.push('', glob, `  Content-Security-Policy: ${policy}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The nginx configuration that sends the same headers (the README shows it). */
export function nginxSnippet(): string {
  const regexes = KINDS.map(
    ({ kind, regex }) =>
      `    "~${regex.source.replace(/\\\//g, '/')}" "${contentSecurityPolicy(kind)}";`,
  );
  return [
    '# In the http block, after `include mime.types;`: module workers must be served as',
    "# JavaScript (nosniff), and older mime.types files lack .mjs. Then each file kind's policy.",
    'types { text/javascript mjs; }',
    'map $uri $loci_csp {',
    '    default "";',
    ...regexes,
    '}',
    '',
    '# In the server block that serves dist/ (an empty value sends no header).',
    'add_header Content-Security-Policy $loci_csp always;',
    ...Object.entries(COMMON_HEADERS).map(
      ([name, value]) => `add_header ${name} "${value}" always;`,
    ),
  ].join('\n');
}
