/**
 * Streams the `send_message` text out of a step's partial JSON (A9): once `"function"` is known
 * to be `send_message`, the characters of `arguments.message` decoded so far, or null. A
 * half-received escape at the end is held back until it completes.
 */
import { partialJsonString } from '../text/partial-json-string';

const FUNCTION = /"function"\s*:\s*"([^"]*)"/;
const MESSAGE = /"message"\s*:\s*"/;

/**
 * The `send_message` text decoded so far from a partial step, or null (A9). It re-reads the whole
 * prefix: the turn loop streams with `createMessageStream` (E80), which is checked against
 * this one-shot reader.
 */
export function partialMessage(partial: string): string | null {
  const fn = FUNCTION.exec(partial);
  if (!fn || fn[1] !== 'send_message') return null;
  const args = partial.indexOf('"arguments"', fn.index);
  if (args < 0) return null;
  const open = MESSAGE.exec(partial.slice(args));
  if (!open) return null;
  return partialJsonString(partial, args + open.index + open[0].length);
}
