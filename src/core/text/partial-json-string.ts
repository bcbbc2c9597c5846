/**
 * Decodes a JSON string value that is still being generated: `from` is the index just after its
 * opening quote. Returns the characters decoded so far, stopping at the closing quote or at a
 * half-received escape (held back until it completes). Streaming UIs use it to show a field of a
 * step while the model writes it.
 */
const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  b: '\b',
  f: '\f',
  '"': '"',
  '\\': '\\',
  '/': '/',
};

export function partialJsonString(partial: string, from: number): string {
  let out = '';
  let i = from;
  while (i < partial.length) {
    const ch = partial[i] as string;
    if (ch === '"') break;
    if (ch !== '\\') {
      out += ch;
      i += 1;
      continue;
    }
    const next = partial[i + 1];
    if (next === undefined) break;
    if (next === 'u') {
      const hex = partial.slice(i + 2, i + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) break;
      out += String.fromCharCode(parseInt(hex, 16));
      i += 6;
      continue;
    }
    out += ESCAPES[next] ?? next;
    i += 2;
  }
  return out;
}
