import type { Plugin } from 'vite';

/**
 * The hosts the engines download models from, and nothing else (rule X-CSP in
 * docs/spec/reliability.md): web-llm fetches weights from Hugging Face and its compiled model
 * libraries from GitHub's raw host; transformers.js fetches from Hugging Face, whose files
 * redirect to its CDNs (`cdn-lfs*.huggingface.co`, `*.hf.co`).
 */
export const MODEL_HOSTS = [
  'https://huggingface.co',
  'https://*.huggingface.co',
  'https://*.hf.co',
  'https://raw.githubusercontent.com',
];

/** The Content-Security-Policy of the built app. */
export function contentSecurityPolicy(): string {
  return [
    "default-src 'self'",
    // WebAssembly (ONNX Runtime, web-llm's TVM runtime) needs wasm-unsafe-eval; no JS eval.
    "script-src 'self' 'wasm-unsafe-eval'",
    "worker-src 'self'",
    `connect-src 'self' ${MODEL_HOSTS.join(' ')}`,
    // Svelte writes some style attributes; styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "manifest-src 'self'",
  ].join('; ');
}

/** Adds the CSP as a meta tag to the built index.html (not in `vite dev`, whose HMR is inline). */
export function cspPlugin(): Plugin {
  return {
    name: 'loci-csp',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: () => [
        {
          tag: 'meta',
          attrs: { 'http-equiv': 'Content-Security-Policy', content: contentSecurityPolicy() },
          injectTo: 'head-prepend',
        },
      ],
    },
  };
}
