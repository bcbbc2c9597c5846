/**
 * Sends Loci's security headers (scripts/security-headers.ts, ADR 0130) from `vite preview` —
 * the server of `npm start` and of the e2e suite — and writes them into the build as `_headers`
 * for static hosts. The page's policy is also a `<meta>` tag in the built index.html, for hosts
 * that send no headers at all (it cannot carry `frame-ancestors`, and it does not reach workers).
 * `vite dev` gets none of this: its HMR client runs inline script.
 */
import type { Plugin } from 'vite';
import { pagePolicy, securityHeaders, staticHeadersFile } from './security-headers';

export function securityHeadersPlugin(): Plugin {
  return {
    name: 'loci-security-headers',
    configurePreviewServer(server) {
      // Registered directly (not returned), so it runs before the static file handler.
      server.middlewares.use((req, res, next) => {
        const base = server.config.base.replace(/\/$/, '');
        const url = req.url ?? '/';
        const path = url.startsWith(base) ? url.slice(base.length) || '/' : url;
        for (const [name, value] of Object.entries(securityHeaders(path)))
          res.setHeader(name, value);
        next();
      });
    },
    transformIndexHtml: {
      order: 'post',
      handler: (_html, context) =>
        context.server
          ? []
          : [
              {
                tag: 'meta',
                attrs: {
                  'http-equiv': 'Content-Security-Policy',
                  content: pagePolicy('meta'),
                },
                injectTo: 'head-prepend',
              },
            ],
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: '_headers', source: staticHeadersFile() });
    },
  };
}
