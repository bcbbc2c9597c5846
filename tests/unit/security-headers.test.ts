import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  contentSecurityPolicy,
  nginxSnippet,
  pagePolicy,
  responseKind,
  securityHeaders,
  staticHeadersFile,
} from '../../scripts/security-headers';

const directive = (policy: string | null, name: string): string[] =>
  (policy ?? '')
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .find(([n]) => n === name)
    ?.slice(1) ?? [];

describe('security headers (X70, ADR 0130)', () => {
  it('X70: sorts the built files into the page, each worker and the service worker', () => {
    expect(responseKind('/')).toBe('document');
    expect(responseKind('/index.html')).toBe('document');
    expect(responseKind('/?share_text=hello')).toBe('document');
    expect(responseKind('/assets/llm.worker-DWWFB4O-.js')).toBe('llm-worker');
    expect(responseKind('/assets/embed.worker-CQ0ROj2z.js')).toBe('embed-worker');
    expect(responseKind('/assets/pdf.worker.min-wgc6bjNh.mjs')).toBe('worker');
    expect(responseKind('/assets/document.worker-B2k9xQ1a.js')).toBe('worker');
    expect(responseKind('/assets/backup.worker-C3l0yR2b.js')).toBe('worker');
    expect(responseKind('/sw.js')).toBe('service-worker');
    expect(responseKind('/share-target-sw.js')).toBe('service-worker');
    expect(responseKind('/workbox-2fbc6a65.js')).toBe('service-worker');
    expect(responseKind('/assets/main-Bw0fngR3.js')).toBe('other');
    expect(responseKind('/assets/llm.worker-x.js.map')).toBe('other');
  });

  it('X70: the page may not be framed; the meta tag leaves out what only a header can carry', () => {
    expect(directive(contentSecurityPolicy('document'), 'frame-ancestors')).toEqual(["'none'"]);
    expect(pagePolicy('meta')).not.toContain('frame-ancestors');
    expect(directive(contentSecurityPolicy('document'), 'script-src')).toEqual([
      "'self'",
      "'wasm-unsafe-eval'",
    ]);
  });

  it('X70: each worker may connect only where its work needs', () => {
    const connect = (kind: Parameters<typeof contentSecurityPolicy>[0]) =>
      directive(contentSecurityPolicy(kind), 'connect-src');
    expect(connect('llm-worker')).toContain('https://raw.githubusercontent.com');
    expect(connect('embed-worker')).toContain('https://huggingface.co');
    expect(connect('embed-worker')).not.toContain('https://raw.githubusercontent.com');
    expect(connect('worker')).toEqual(["'self'"]);
    expect(connect('service-worker')).toEqual(["'self'"]);
    for (const kind of ['llm-worker', 'embed-worker', 'worker', 'service-worker'] as const) {
      expect(directive(contentSecurityPolicy(kind), 'default-src')).toEqual(["'none'"]);
      expect(contentSecurityPolicy(kind)).not.toContain("'unsafe-eval'");
    }
  });

  it('X70: every response gets Referrer-Policy and nosniff; only pages and workers a policy', () => {
    expect(securityHeaders('/assets/main-Bw0fngR3.js')).toEqual({
      'Referrer-Policy': 'no-referrer',
      'X-Content-Type-Options': 'nosniff',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Embedder-Policy': 'require-corp',
    });
    expect(securityHeaders('/sw.js')['Content-Security-Policy']).toBe(
      contentSecurityPolicy('service-worker'),
    );
  });

  it('P11: every response makes the app cross-origin isolated, and the LLM worker may start wllama workers', () => {
    for (const path of ['/', '/assets/llm.worker-abc.js', '/wllama/wllama.wasm', '/sw.js']) {
      expect(securityHeaders(path)['Cross-Origin-Opener-Policy'], path).toBe('same-origin');
      expect(securityHeaders(path)['Cross-Origin-Embedder-Policy'], path).toBe('require-corp');
    }
    expect(contentSecurityPolicy('llm-worker')).toContain('worker-src blob:');
    expect(staticHeadersFile()).toContain('Cross-Origin-Embedder-Policy: require-corp');
  });

  it('X75: the _headers file gives each path at most one policy (hosts merge matching rules)', () => {
    const file = staticHeadersFile();
    const blocks = file.split('\n\n').filter((b) => b.includes('Content-Security-Policy'));
    expect(blocks.length).toBe(10);
    for (const block of blocks) {
      const [glob] = block.split('\n');
      expect(glob).not.toBe('/*');
      // The glob, read as a host would (`*` = anything), names files of one kind only.
      const kind = responseKind(glob!.replace('*', 'x-1.js'));
      expect(block, glob).toContain(contentSecurityPolicy(kind === 'other' ? 'document' : kind));
    }
    expect(file).toMatch(
      /^\/\*\n {2}Referrer-Policy: no-referrer\n {2}X-Content-Type-Options: nosniff$/m,
    );
  });

  it('X75: the README shows the nginx configuration this module generates', () => {
    const readme = readFileSync('README.md', 'utf8');
    const block = /<!-- nginx:begin -->\n```nginx\n([\s\S]*?)\n```\n<!-- nginx:end -->/.exec(
      readme,
    );
    expect(block?.[1]).toBe(nginxSnippet());
  });
});
