/**
 * Streams the section text out of a writing step's partial JSON, so the UI can show the
 * section as it is generated (`WriterOptions.onDelta` gives the raw JSON). Returns the
 * characters of `"section"` decoded so far, or null before the field starts; a half-received
 * escape at the end is held back until it completes.
 */
const SECTION = /"section"\s*:\s*"/;
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

/** The decoded prefix of the `section` string in `partial`, or null. */
export function partialSection(partial: string): string | null {
  const open = SECTION.exec(partial);
  if (open === null) return null;
  let out = '';
  let i = open.index + open[0].length;
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
