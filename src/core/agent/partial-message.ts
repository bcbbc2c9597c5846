/**
 * Streams the `send_message` text out of a step's partial JSON (A9): once `"function"` is known
 * to be `send_message`, the characters of `arguments.message` decoded so far, or null. A
 * half-received escape at the end is held back until it completes.
 */
const FUNCTION = /"function"\s*:\s*"([^"]*)"/;
const MESSAGE = /"message"\s*:\s*"/;

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

/** The `send_message` text decoded so far from a partial step, or null (A9). */
export function partialMessage(partial: string): string | null {
  const fn = FUNCTION.exec(partial);
  if (!fn || fn[1] !== 'send_message') return null;
  const args = partial.indexOf('"arguments"', fn.index);
  if (args < 0) return null;
  const open = MESSAGE.exec(partial.slice(args));
  if (!open) return null;
  let i = args + open.index + open[0].length;
  let out = '';
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
      if (hex.length < 4) break;
      out += String.fromCharCode(parseInt(hex, 16));
      i += 6;
      continue;
    }
    out += ESCAPES[next] ?? next;
    i += 2;
  }
  return out;
}
