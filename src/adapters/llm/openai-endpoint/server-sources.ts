/**
 * Which model servers the LLM worker may call (ADR 0120). The Content-Security-Policy is fixed
 * per build, so the set is decided when the app is built: loopback on any port by default (the
 * Ollama, llama.cpp server, LM Studio and vLLM presets all live there), plus the origins a
 * deployer lists in `LOCI_MODEL_SERVERS` (comma-separated, e.g. `https://gpu.home.lan:8443`).
 * `scripts/security-headers.ts` writes the same list into the LLM worker's `connect-src`, and
 * the engine refuses any other URL before fetching, with a message naming the build setting.
 */
// IPv6 literals are not valid CSP host sources, so [::1] is left out.
export const LOOPBACK_SOURCES = ['http://127.0.0.1:*', 'http://localhost:*'];

/** This build's sources: loopback plus `LOCI_MODEL_SERVERS` at build time. */
export const MODEL_SERVER_SOURCES: readonly string[] = [
  ...LOOPBACK_SOURCES,
  ...parseServerSources(typeof __LOCI_MODEL_SERVERS__ === 'string' ? __LOCI_MODEL_SERVERS__ : ''),
];

/** Splits `LOCI_MODEL_SERVERS` into CSP source expressions (scheme://host[:port|:*]). */
export function parseServerSources(list: string | undefined): string[] {
  if (!list) return [];
  return list
    .split(',')
    .map((s) => s.trim().replace(/\/+$/, ''))
    .filter((s) => /^https?:\/\/(\*\.)?[A-Za-z0-9.[\]:-]+(:(\d+|\*))?$/.test(s));
}

/** Whether `url` matches one CSP source expression of the form above. */
export function sourceMatches(source: string, url: URL): boolean {
  const m = /^(https?):\/\/((?:\*\.)?[^:/]+|\[[^\]]+\])(?::(\d+|\*))?$/.exec(source);
  if (!m) return false;
  const [, scheme, host = '', port] = m;
  if (url.protocol !== `${scheme}:`) return false;
  const hostname = url.hostname.toLowerCase();
  const wanted = host.toLowerCase();
  if (wanted.startsWith('*.')) {
    if (!hostname.endsWith(wanted.slice(1))) return false;
  } else if (hostname !== wanted) return false;
  const actualPort = url.port || (url.protocol === 'https:' ? '443' : '80');
  if (port === '*') return true;
  return (port ?? (scheme === 'https' ? '443' : '80')) === actualPort;
}

/** Loopback hosts: an https page may still call them over http (no mixed-content block). */
export function isLoopback(url: URL): boolean {
  const host = url.hostname.toLowerCase();
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
