/**
 * Bidirectional-text controls (embeddings, overrides, isolates, marks): inside a file name they
 * reorder what the user reads, so `invoice\u202Efdp.txt` shows as "invoicetxt.pdf" (X166).
 */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/**
 * A name (file name, document title) as it is safe to show: every bidi control replaced by its
 * visible code point, `[U+202E]`, so the characters read in the order they were stored and the
 * user sees that something was hidden in the name.
 */
export function displayName(name: string): string {
  return name.replace(
    BIDI_CONTROLS,
    (c) => `[U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}]`,
  );
}

/** Whether `name` holds a bidi control that {@link displayName} would show. */
export function hasBidiControls(name: string): boolean {
  BIDI_CONTROLS.lastIndex = 0;
  const found = BIDI_CONTROLS.test(name);
  BIDI_CONTROLS.lastIndex = 0;
  return found;
}
