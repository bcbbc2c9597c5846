/**
 * User- and file-controlled strings that sit inside the prompt's own structure — an agent's name
 * in the instructions, a block's description, who said a recalled line — rendered so they cannot
 * forge that structure (X232, ADR 0191): no line break (so no line of theirs can look like a role
 * header such as `SYSTEM:`) and no `<` or `>` (so no tag such as `</human>` or a chat-template
 * token such as `<|im_start|>`). An ordinary name is left exactly as it was.
 */

/** Every character a model or a regular expression may read as the end of a line. */
const LINE_BREAKS = /[\n\r\v\f\u0085\u2028\u2029]+/g;

/**
 * `text` for one line of the prompt where it is not quoted: line breaks become one space, `<` and
 * `>` become `‹` and `›` (still readable, never a tag).
 */
export function inlineText(text: string): string {
  return text.replace(LINE_BREAKS, ' ').replace(/</g, '‹').replace(/>/g, '›');
}

/** A line the app never writes in a summary: one that opens with a system-level role. */
const SYSTEM_ROLE_LINE = /^(\s*)(system|developer|tool)(\s*):/gim;

/**
 * Text of several lines that sits in the system message although a model or a file wrote it (the
 * running summary): no `<` or `>` (as in {@link inlineText}), the Unicode line separators become a
 * space, and a line that opens with a system-level role (`SYSTEM:`) has the role quoted
 * (`"SYSTEM":`). Ordinary lines — `Sam: …`, `User: …` — are unchanged.
 */
export function multilineText(text: string): string {
  return text
    .replace(/[\u0085\u2028\u2029]/g, ' ')
    .replace(/</g, '‹')
    .replace(/>/g, '›')
    .replace(SYSTEM_ROLE_LINE, '$1"$2"$3:');
}

/** `\uXXXX` for a character JSON may leave raw but the prompt must not. */
function escapeChar(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** A name that reads as a name: letters and digits, spaces, `.`, `'`, `’` and `-` between them. */
const PLAIN_NAME = /^[\p{L}\p{N}][\p{L}\p{M}\p{N} .'’-]*$/u;
/** A name that a model could read as a chat role when it opens a line. */
const ROLE_WORD = /^(?:system|assistant|user|developer|tool|model|human)\b/i;

/**
 * A name that opens a line as its speaker (`Sam: …` in a summary or a transcript): itself when it
 * reads as a plain name, else quoted data (`"SYSTEM": …`), so no value can make a line look like
 * a role header.
 */
export function speakerText(name: string): string {
  return PLAIN_NAME.test(name) && !ROLE_WORD.test(name) ? name : quoteInline(name);
}

/**
 * `text` as a JSON string with `<`, `>` and the Unicode line separators escaped too, so nothing
 * inside it ends the quote, starts a line or opens a tag: for a name shown as quoted data where
 * the exact value must survive (a block label that breaks the label rule).
 */
export function quoteInline(text: string): string {
  return JSON.stringify(text).replace(/[<>\u0085\u2028\u2029]/g, escapeChar);
}
