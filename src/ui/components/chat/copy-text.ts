/**
 * What a message's Copy button puts on the clipboard (U163, X180). The user's own text is copied
 * as stored. A reply is copied as the reader sees it (its rendered text, not its Markdown or
 * citation markers), except when the page shows it as plain text: then the page may show only
 * its first 20,000 characters (`MAX_SHOWN_CHARS`) (X172), and Copy copies the stored text whole,
 * never the cut part or the note about it.
 */

export interface ShownBody {
  /** The rendered body's text (`innerText`). */
  text: string;
  /** Whether the body is the plain-text fallback (too long, too deep, or not formattable). */
  plain: boolean;
}

export function copyText(message: { role: string; text: string }, shown: ShownBody | null): string {
  if (message.role === 'user' || shown === null || shown.plain) return message.text.trim();
  return shown.text.trim();
}
