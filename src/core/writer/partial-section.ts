/**
 * Streams the section text out of a writing step's partial JSON, so the UI can show the
 * section as it is generated (`WriterOptions.onDelta` gives the raw JSON). Returns the
 * characters of `"section"` decoded so far, or null before the field starts; a half-received
 * escape at the end is held back until it completes.
 */
import { partialJsonString } from '../text/partial-json-string';

const SECTION = /"section"\s*:\s*"/;

/** The decoded prefix of the `section` string in `partial`, or null. */
export function partialSection(partial: string): string | null {
  const open = SECTION.exec(partial);
  if (open === null) return null;
  return partialJsonString(partial, open.index + open[0].length);
}
